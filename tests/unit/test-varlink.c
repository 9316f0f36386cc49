// sources: activator/varlink.c
/* ember-activator's reader of Varlink calls (ManagedOOM, the dynamic user database): what
 * it keeps of a call, and every malformed or hostile text refused, never misread. */
#include "harness.h"
#include "varlink.h"

static struct varlink_call call;

static const char *param(const char *key)
{
	const struct varlink_param *p = varlink_param(&call, key);
	return p ? p->value : "(none)";
}

static void lookup_by_uid(void)
{
	CHECK(varlink_parse_call("{\"method\":\"io.systemd.UserDatabase.GetUserRecord\","
				 "\"parameters\":{\"uid\":61234,\"service\":\"io.systemd.DynamicUser\"}}",
				 &call) == 0);
	CHECK_STR(call.method, "io.systemd.UserDatabase.GetUserRecord");
	CHECK(!call.more);
	CHECK(call.nparams == 2);
	CHECK_STR(param("uid"), "61234");
	CHECK(!varlink_param(&call, "uid")->is_string);
	CHECK_STR(param("service"), "io.systemd.DynamicUser");
	CHECK(varlink_param(&call, "service")->is_string);
	CHECK(varlink_param(&call, "userName") == NULL);
}

static void more_and_blanks(void)
{
	CHECK(varlink_parse_call(" {\n \"more\" : true , \"method\":\"a.B\",\"parameters\":{}} ",
				 &call) == 0);
	CHECK(call.more);
	CHECK(call.nparams == 0);
	CHECK(varlink_parse_call("{\"method\":\"a.B\",\"more\":false}", &call) == 0);
	CHECK(!call.more);
}

/* A key inside a string is text, not a key: the old strstr() reading took it for one. */
static void keys_inside_strings_are_text(void)
{
	CHECK(varlink_parse_call("{\"parameters\":{\"userName\":\"x\\\",\\\"uid\\\":0,\\\"\","
				 "\"service\":\"s\"},\"method\":\"m\"}", &call) == 0);
	CHECK_STR(param("userName"), "x\",\"uid\":0,\"");
	CHECK(varlink_param(&call, "uid") == NULL);
	CHECK_STR(call.method, "m");
}

static void escapes_decoded(void)
{
	CHECK(varlink_parse_call("{\"method\":\"\\u0061.\\u00e9\\/\",\"parameters\":{\"t\":\"\\n\\t\"}}",
				 &call) == 0);
	CHECK_STR(call.method, "a.\xc3\xa9/");
	CHECK_STR(param("t"), "\n\t");
}

static void nested_values_passed_over(void)
{
	CHECK(varlink_parse_call("{\"method\":\"m\",\"x\":[1,{\"a\":[true,null,\"]\"]}],"
				 "\"parameters\":{\"o\":{\"uid\":1},\"a\":[2],\"gid\":-3.5e2}}", &call) == 0);
	CHECK(call.nparams == 1);
	CHECK_STR(param("gid"), "-3.5e2");
	CHECK(varlink_param(&call, "uid") == NULL);
}

static void malformed_refused(void)
{
	static const char *const bad[] = {
		"", "[]", "\"m\"", "{}", "{\"method\":1}", "{\"method\":\"m\"} x",
		"{\"method\":\"m\",}", "{\"method\":\"m\"", "{\"method\":\"m\x01\"}",
		"{\"method\":\"m\",\"parameters\":{\"uid\":01}}",
		"{\"method\":\"m\",\"parameters\":{\"uid\":1.}}",
		"{\"method\":\"m\",\"parameters\":{\"uid\":tru}}",
		"{\"method\":\"m\",\"parameters\":[]}",
		"{\"method\":\"m\",\"more\":\"true\"}",
		"{\"method\":\"\\u0000\"}", "{\"method\":\"\\ud800\"}", "{\"method\":\"\\x41\"}",
		"{\"method\":\"m\",\"parameters\":{\"a\" 1}}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int rc = varlink_parse_call(bad[i], &call);
		if (rc != -1)
			printf("  accepted: %s\n", bad[i]);
		CHECK(rc == -1);
	}
}

static void limits_refused(void)
{
	char deep[128] = "{\"method\":\"m\",\"x\":", many[1024] = "{\"method\":\"m\",\"parameters\":{";
	char long_key[256];

	for (int i = 0; i < 20; i++)
		strcat(deep, "[");
	for (int i = 0; i < 20; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	CHECK(varlink_parse_call(deep, &call) == -1);
	for (int i = 0; i < VARLINK_PARAMS_MAX + 1; i++)
		sprintf(many + strlen(many), "%s\"p%d\":%d", i ? "," : "", i, i);
	strcat(many, "}}");
	CHECK(varlink_parse_call(many, &call) == -1);
	snprintf(long_key, sizeof long_key, "{\"method\":\"m\",\"parameters\":{\"%040d\":1}}", 0);
	CHECK(varlink_parse_call(long_key, &call) == -1);
}

int main(void)
{
	RUN(lookup_by_uid);
	RUN(more_and_blanks);
	RUN(keys_inside_strings_are_text);
	RUN(escapes_decoded);
	RUN(nested_values_passed_over);
	RUN(malformed_refused);
	RUN(limits_refused);
	return harness_done();
}
