/* boot-measure: measure boot phases and other data into TPM2 PCRs, keep a CEL-JSON
 * log of them, and check the log against the TPM. See man/boot-measure.8.scd. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot-measure.h"
#include "cel.h"
#include "cli.h"
#include "eventlog.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "tpm.h"

static const char usage_text[] =
	"usage: boot-measure [--tcti SPEC] [--log PATH] COMMAND\n"
	"  phase WORD                          measure a boot phase word into PCR 11\n"
	"  extend --pcr N --string S           measure a string (at most 1024 bytes)\n"
	"  extend --pcr N --file PATH          measure a file's contents\n"
	"  machine-id [--file PATH]            measure \"machine-id:ID\" into PCR 15\n"
	"  log [--json]                        print the measurement log\n"
	"  verify                              replay the log and compare with the TPM\n"
	"  status                              show the TPM's version and active banks\n"
	"options:\n"
	"  --tcti SPEC   device[:PATH] (default device:/dev/tpmrm0), swtpm[:CONF], mssim[:CONF]\n"
	"  --log PATH    the log (default " EVENT_LOG_DEFAULT ")\n"
	"  -v, --verbose  more messages\n"
	"  -h, --help  --version\n"
	"exit: 0 ok, 1 verify mismatch, 2 no TPM (nothing measured), 3 TPM 1.2 refused,\n"
	"      4 TPM failed, 5 log incomplete or malformed, 100 usage, 111 system error\n";

enum { OPT_TCTI = 256, OPT_LOG, OPT_PCR, OPT_STRING, OPT_FILE, OPT_JSON, OPT_VERSION };

static const struct option long_options[] = {
	{ "tcti", required_argument, NULL, OPT_TCTI },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "pcr", required_argument, NULL, OPT_PCR },
	{ "string", required_argument, NULL, OPT_STRING },
	{ "file", required_argument, NULL, OPT_FILE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static noreturn void usage_error(const char *fmt, const char *arg)
{
	char msg[256];
	snprintf(msg, sizeof msg, fmt, arg);
	die(EXIT_USAGE, "%s (see --help)", msg);
}

static void parse_pcr(const char *arg, struct options *opt)
{
	unsigned long pcr;
	if (parse_ulong(arg, 0, CEL_MAX_PCR, &pcr) < 0)
		usage_error("--pcr %s: not a PCR index 0-23", arg);
	opt->pcr = (int)pcr;
}

static void parse_options(int argc, char **argv, struct options *opt)
{
	int c;
	while ((c = getopt_long(argc, argv, "vh", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_TCTI: opt->tcti = optarg; break;
		case OPT_LOG: opt->log_path = optarg; break;
		case OPT_PCR: parse_pcr(optarg, opt); break;
		case OPT_STRING: opt->string = optarg; break;
		case OPT_FILE: opt->file = optarg; break;
		case OPT_JSON: opt->json = true; break;
		case 'v': log_set_level(LOG_LEVEL_DEBUG); break;
		case 'h': fputs(usage_text, stdout); exit(EXIT_OK);
		case OPT_VERSION: print_version("boot-measure"); exit(EXIT_OK);
		default: die(EXIT_USAGE, "bad option (see --help)");
		}
	}
	if (!tpm_tcti_valid(opt->tcti))
		usage_error("--tcti %s: unknown TCTI (use device, swtpm or mssim)", opt->tcti);
	if (!opt->log_path[0])
		usage_error("--log%s: empty path", "");
}

/* Each command takes exactly its own options; anything else is a mistake worth saying. */
static void check_options(const char *command, const struct options *opt, bool pcr, bool string,
			  bool file, bool json)
{
	if ((opt->pcr >= 0 && !pcr) || (opt->string && !string) || (opt->file && !file) ||
	    (opt->json && !json))
		usage_error("%s: option not taken by this command", command);
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *value = getenv(name);
	return value && *value ? value : fallback;
}

static int run(const char *command, int n_args, char **args, const struct options *opt)
{
	bool is_phase = strcmp(command, "phase") == 0;
	if (n_args != (is_phase ? 1 : 0))
		usage_error(is_phase ? "%s takes one phase word" : "%s takes no arguments", command);
	if (is_phase) {
		check_options(command, opt, false, false, false, false);
		return cmd_phase(opt, args[0]);
	}
	if (strcmp(command, "extend") == 0) {
		check_options(command, opt, true, true, true, false);
		return cmd_extend(opt);
	}
	if (strcmp(command, "machine-id") == 0) {
		check_options(command, opt, false, false, true, false);
		return cmd_machine_id(opt);
	}
	if (strcmp(command, "log") == 0) {
		check_options(command, opt, false, false, false, true);
		return cmd_log(opt);
	}
	check_options(command, opt, false, false, false, false);
	if (strcmp(command, "verify") == 0)
		return cmd_verify(opt);
	if (strcmp(command, "status") == 0)
		return cmd_status(opt);
	usage_error("%s: unknown command", command);
}

int main(int argc, char **argv)
{
	struct options opt = {
		.tcti = env_or(TPM_TCTI_ENV, TPM_DEFAULT_TCTI),
		.log_path = env_or(EVENT_LOG_ENV, EVENT_LOG_DEFAULT),
		.pcr = -1,
	};
	int rc;

	log_open("boot-measure");
	parse_options(argc, argv, &opt);
	if (optind >= argc)
		usage_error("%s", "missing command");
	rc = run(argv[optind], argc - optind - 1, argv + optind + 1, &opt);
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		die(EXIT_SYSTEM, "stdout: write failed");
	return rc;
}
