// sources:
#include "harness.h"
#include "cgroup2.h"

static void parses_known_options(void)
{
	CHECK(cg2_options_parse("rw,nsdelegate,memory_recursiveprot") ==
	      (CG2_NSDELEGATE | CG2_MEMORY_RECURSIVEPROT));
	CHECK(cg2_options_parse("memory_hugetlb_accounting\n") == CG2_MEMORY_HUGETLB_ACCOUNTING);
}

static void ignores_unknown_and_garbage(void)
{
	CHECK(cg2_options_parse("") == 0);
	CHECK(cg2_options_parse(",,,") == 0);
	CHECK(cg2_options_parse("nsdelegatex,favordynmods,memory_localevents") == 0);
}

static void features_file_format(void)
{
	CHECK(cg2_options_parse("nsdelegate\nfavordynmods\nmemory_localevents\nmemory_recursiveprot\n"
				"memory_hugetlb_accounting\npids_localevents\n") == CG2_WANTED);
}

static void overlong_input_is_not_trusted(void)
{
	char big[1000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	CHECK(cg2_options_parse(big) == 0);
}

static void names_round_trip(void)
{
	CHECK_STR(cg2_option_name(CG2_NSDELEGATE), "nsdelegate");
	CHECK_STR(cg2_option_name(CG2_MEMORY_HUGETLB_ACCOUNTING), "memory_hugetlb_accounting");
	CHECK_STR(cg2_option_name(1u << 20), "?");
}

int main(void)
{
	RUN(parses_known_options);
	RUN(ignores_unknown_and_garbage);
	RUN(features_file_format);
	RUN(overlong_input_is_not_trusted);
	RUN(names_round_trip);
	return harness_done();
}
