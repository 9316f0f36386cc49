// sources: init/exec-line.c
/* ExecStart= command lines: quoting, escapes, $VAR expansion against an environment. */
#include "fuzz.h"
#include "exec-line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const env[] = { "A=one", "B=two words", "EMPTY=", NULL };
	static struct exec_argv out;
	char *line = fuzz_string(data, size);

	exec_line_split(line, env, &out);
	exec_line_prefixes(line);
	exec_words_split(line, &out);
	exec_line_check(line, &out);
	free(line);
	return 0;
}
