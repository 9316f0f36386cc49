#include "json.h"

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_kv_string(FILE *f, const char *key, const char *value)
{
	json_string(f, key);
	fputc(':', f);
	json_string(f, value);
}

void json_kv_int(FILE *f, const char *key, long long value)
{
	json_string(f, key);
	fprintf(f, ":%lld", value);
}
