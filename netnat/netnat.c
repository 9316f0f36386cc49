/* netnat: masquerading and port forwarding through nftables (docs/netnat.md).
 * The command line and the file are parsed into a nat_state (entry.c, conffile.c) and
 * validated with no I/O; sync.c then reads the kernel's state and sends one batch. */
#include "cli.h"
#include "conffile.h"
#include "entry.h"
#include "exitcode.h"
#include "forwarding.h"
#include "json.h"
#include "kstate.h"
#include "log.h"
#include "netnat.h"
#include "nlink.h"
#include "ruleset.h"
#include "sync.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
	"Usage: netnat [OPTIONS] COMMAND\n"
	"  masquerade add|del PREFIX\n"
	"  forward add|del tcp|udp [ADDRESS:]PORT TARGET[:PORT]\n"
	"  list [--json]      show ember's NAT entries\n"
	"  flush              remove ember's NAT tables\n"
	"  apply FILE         make the entries exactly those of FILE ('-' = stdin)\n"
	"  check FILE         validate FILE only\n"
	"Options:\n"
	"  --forwarding       also enable IP forwarding for the families changed\n"
	"  --json             machine-readable output for list\n"
	"  -v, --verbose      say what is done\n"
	"  -h, --help         this text\n"
	"  -V, --version      version\n"
	"Exit codes: 0 ok, 1 invalid input, 2 conflicts with the current entries,\n"
	"3 kernel lacks NAT support, 4 permission denied, 5 kernel refused,\n"
	"100 usage, 111 system error. See netnat(8).\n";

struct options {
	bool forwarding;
	bool json;
	char *words[8];
	int n_words;
};

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(EXIT_USAGE);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof *o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage_text, stdout);
			exit(0);
		} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			print_version("netnat");
			exit(0);
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			log_set_level(LOG_LEVEL_DEBUG);
		} else if (strcmp(a, "--forwarding") == 0) {
			o->forwarding = true;
		} else if (strcmp(a, "--json") == 0) {
			o->json = true;
		} else if (a[0] == '-' && a[1] != '\0') {
			log_error("%.64s: unknown option", a);
			usage();
		} else if (o->n_words == (int)(sizeof o->words / sizeof *o->words)) {
			log_error("too many arguments");
			usage();
		} else {
			o->words[o->n_words++] = argv[i];
		}
	}
}

/* ---- reading the file ------------------------------------------------------------------- */

/* The whole file (stdin for "-"), at most NAT_MAX_FILE bytes. */
static char *slurp(const char *path, size_t *len)
{
	int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = NAT_MAX_FILE + 1;
	char *buf;
	ssize_t n;

	if (fd < 0)
		die(EXIT_SYSTEM, "%s: cannot open: %s", path, strerror(errno));
	buf = malloc(cap);
	if (!buf)
		die(EXIT_SYSTEM, "%s: out of memory", path);
	*len = 0;
	while (*len < cap && (n = read(fd, buf + *len, cap - *len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die(EXIT_SYSTEM, "%s: cannot read: %s", path, strerror(errno));
		*len += (size_t)n;
	}
	if (fd != 0)
		close(fd);
	if (*len > NAT_MAX_FILE)
		die(NETNAT_EXIT_INVALID, "%s: larger than %d bytes", path, NAT_MAX_FILE);
	return buf;
}

static void load_file(const char *path, struct nat_state *s)
{
	struct nat_error err;
	size_t len;
	char *text = slurp(path, &len);

	nat_state_init(s);
	if (conf_parse(text, len, s, &err) < 0)
		die(NETNAT_EXIT_INVALID, "%s:%s", strcmp(path, "-") == 0 ? "stdin" : path, err.msg);
	free(text);
}

/* ---- the commands ----------------------------------------------------------------------- */

struct change {
	bool add, is_masq;
	struct masq_entry masq;
	struct fwd_entry fwd;
	const struct nat_state *file; /* apply */
};

static int conflict(const char *what, const char *why)
{
	log_error("%s: %s", what, why);
	return NETNAT_EXIT_CONFLICT;
}

static int want_masq(const struct nat_state *cur, struct nat_state *want, const struct change *c)
{
	const struct masq_entry *have = nat_find_masq(cur, &c->masq);
	char text[NAT_TEXT_MAX], what[NAT_TEXT_MAX + 16];
	struct nat_error err;

	nat_format_masq(&c->masq, text, sizeof text);
	snprintf(what, sizeof what, "masquerade %s", text);
	if (c->add && have)
		return conflict(what, "already present");
	if (!c->add && !have)
		return conflict(what, "not present");
	if (nat_state_copy(want, cur, have, NULL) < 0 || (c->add && nat_state_add_masq(want, &c->masq) < 0))
		die(EXIT_SYSTEM, "out of memory");
	if (nat_state_check(want, &err) < 0) {
		log_error("%s", err.msg);
		return NETNAT_EXIT_CONFLICT;
	}
	return 0;
}

static int want_fwd(const struct nat_state *cur, struct nat_state *want, const struct change *c)
{
	const struct fwd_entry *have = nat_find_fwd_key(cur, &c->fwd);
	char text[NAT_TEXT_MAX], other[NAT_TEXT_MAX], what[NAT_TEXT_MAX + 16], why[NAT_TEXT_MAX + 48];

	nat_format_fwd(&c->fwd, text, sizeof text);
	snprintf(what, sizeof what, "forward %s", text);
	if (have && !nat_fwd_equal(have, &c->fwd)) {
		nat_format_fwd(have, other, sizeof other);
		snprintf(why, sizeof why, c->add ? "conflicts with forward %s (delete it first)"
						 : "not present (forward %s is)", other);
		return conflict(what, why);
	}
	if (c->add && have)
		return conflict(what, "already present");
	if (!c->add && !have)
		return conflict(what, "not present");
	if (nat_state_copy(want, cur, NULL, have) < 0 || (c->add && nat_state_add_fwd(want, &c->fwd) < 0))
		die(EXIT_SYSTEM, "out of memory");
	nat_state_sort(want);
	return 0;
}

static int want_of_change(const struct nat_state *cur, struct nat_state *want, void *ctx)
{
	const struct change *c = ctx;

	if (c->file)
		return nat_state_copy(want, c->file, NULL, NULL) < 0 ? EXIT_SYSTEM : 0;
	return c->is_masq ? want_masq(cur, want, c) : want_fwd(cur, want, c);
}

static int open_socket(struct nlsock *s)
{
	if (nl_open(s) < 0)
		return sync_explain_errno(errno, "opening the netfilter netlink socket");
	return 0;
}

static int enable_forwarding(const bool families[NAT_FAMILIES])
{
	for (enum nat_family f = 0; f < NAT_FAMILIES; f++) {
		const char *path;
		if (!families[f])
			continue;
		if (forwarding_enable(f, &path) < 0) {
			log_error("%s: cannot enable forwarding: %s (the NAT entries were applied)", path,
				  strerror(errno));
			return EXIT_SYSTEM;
		}
		log_debug("%s: forwarding enabled", path);
	}
	return 0;
}

static int run_change(struct change *c, const struct options *o)
{
	/* One entry changes: read only what decides about it (kstate.h). */
	struct kscope one_masq = { .masq = true }, one_fwd = { .key = &c->fwd };
	const struct kscope *scope = c->file ? &kscope_all : c->is_masq ? &one_masq : &one_fwd;
	bool families[NAT_FAMILIES] = { false, false };
	struct nlsock s;
	int code = open_socket(&s);

	if (code)
		return code;
	code = sync_run(&s, scope, want_of_change, c);
	nl_close(&s);
	if (code || !o->forwarding)
		return code;
	if (c->file) {
		for (enum nat_family f = 0; f < NAT_FAMILIES; f++)
			families[f] = nat_state_count(c->file, f) > 0;
	} else {
		families[c->is_masq ? c->masq.prefix.family : c->fwd.target.family] = true;
	}
	return enable_forwarding(families);
}

static int cmd_entry(const struct options *o)
{
	struct change c = { .add = false };
	struct nat_error err;
	char *words[4];
	int n = 0;

	/* "masquerade add P" -> words "masquerade P" as conf_parse_words takes them. */
	if (o->n_words < 2)
		usage();
	if (strcmp(o->words[1], "add") == 0)
		c.add = true;
	else if (strcmp(o->words[1], "del") != 0) {
		log_error("%.64s %.64s: expected add or del", o->words[0], o->words[1]);
		usage();
	}
	if (!c.add && o->forwarding) {
		log_error("--forwarding goes with add or apply");
		usage();
	}
	words[n++] = o->words[0];
	for (int i = 2; i < o->n_words && n < 4; i++)
		words[n++] = o->words[i];
	if (o->n_words - 2 != n - 1) {
		log_error("%s: too many arguments", o->words[0]);
		usage();
	}
	if (conf_parse_words(words, n, &c.masq, &c.fwd, &c.is_masq, &err) < 0) {
		/* A wrong number of words is a usage error; a bad word is invalid input. */
		if ((c.is_masq && n != 2) || (!c.is_masq && n != 4)) {
			log_error("%s", err.msg);
			usage();
		}
		die(NETNAT_EXIT_INVALID, "%s", err.msg);
	}
	return run_change(&c, o);
}

static int cmd_apply(const struct options *o, bool check_only)
{
	struct nat_state file;
	struct change c = { .file = &file };
	int code;

	if (o->n_words != 2)
		usage();
	load_file(o->words[1], &file);
	if (check_only) {
		log_debug("%s: %zu masquerade and %zu forward entries, valid", o->words[1], file.n_masq,
			  file.n_fwd);
		nat_state_free(&file);
		return 0;
	}
	code = run_change(&c, o);
	nat_state_free(&file);
	return code;
}

static int cmd_flush(const struct options *o)
{
	/* Only the tables matter: no entries need reading. */
	static const struct kscope tables_only = { .masq = false };
	struct nlsock s;
	int code;

	if (o->n_words != 1 || o->forwarding)
		usage();
	if ((code = open_socket(&s)))
		return code;
	code = sync_run(&s, &tables_only, NULL, NULL);
	nl_close(&s);
	return code;
}

/* ---- list ------------------------------------------------------------------------------- */

static void list_text(const struct kstate *k)
{
	char text[NAT_TEXT_MAX];

	for (size_t i = 0; i < k->entries.n_masq; i++) {
		nat_format_masq(&k->entries.masq[i], text, sizeof text);
		printf("masquerade %s\n", text);
	}
	for (size_t i = 0; i < k->entries.n_fwd; i++) {
		nat_format_fwd(&k->entries.fwd[i], text, sizeof text);
		printf("forward %s\n", text);
	}
}

static void json_addr(FILE *f, const char *key, const struct nat_addr *a)
{
	char text[NAT_TEXT_MAX];
	nat_format_addr(a, text, sizeof text);
	json_kv_string(f, key, text);
}

static void list_json(const struct kstate *k)
{
	char text[NAT_TEXT_MAX];

	fputs("{\"tables\":[", stdout);
	for (enum nat_family f = 0; f < NAT_FAMILIES; f++) {
		printf("%s{", f ? "," : "");
		json_kv_string(stdout, "family", nat_family_name(f));
		printf(",\"name\":\"%s\",\"present\":%s,\"intact\":%s}", NETNAT_TABLE,
		       k->fam[f].table ? "true" : "false", k->fam[f].intact ? "true" : "false");
	}
	fputs("],\"masquerade\":[", stdout);
	for (size_t i = 0; i < k->entries.n_masq; i++) {
		const struct masq_entry *m = &k->entries.masq[i];
		nat_format_masq(m, text, sizeof text);
		printf("%s{", i ? "," : "");
		json_kv_string(stdout, "family", nat_family_name(m->prefix.family));
		fputc(',', stdout);
		json_kv_string(stdout, "prefix", text);
		fputc('}', stdout);
	}
	fputs("],\"forward\":[", stdout);
	for (size_t i = 0; i < k->entries.n_fwd; i++) {
		const struct fwd_entry *e = &k->entries.fwd[i];
		printf("%s{", i ? "," : "");
		json_kv_string(stdout, "family", nat_family_name(e->target.family));
		fputc(',', stdout);
		json_kv_string(stdout, "protocol", nat_proto_name(e->proto));
		fputc(',', stdout);
		if (e->has_listen)
			json_addr(stdout, "address", &e->listen);
		else
			fputs("\"address\":null", stdout);
		printf(",\"port\":%u,", e->port);
		json_addr(stdout, "target", &e->target);
		printf(",\"target_port\":%u}", e->target_port);
	}
	fputs("]}\n", stdout);
}

static int cmd_list(const struct options *o)
{
	struct nlsock s;
	struct kstate k;
	int code;

	if (o->n_words != 1 || o->forwarding)
		usage();
	if ((code = open_socket(&s)))
		return code;
	kstate_init(&k);
	/* EINTR: the ruleset changed during the dump; read again. */
	for (int i = 0; i < 10 && (code = kstate_read(&s, &k, &kscope_all)) < 0 && errno == EINTR; i++)
		;
	if (code < 0) {
		code = sync_explain_errno(errno, "reading the ruleset");
		goto out;
	}
	for (enum nat_family f = 0; f < NAT_FAMILIES; f++)
		if (k.fam[f].table && !k.fam[f].intact)
			log_warn("table %s %s: %s; the next change rebuilds it", nat_family_name(f),
				 NETNAT_TABLE, k.fam[f].damage);
	if (o->json)
		list_json(&k);
	else
		list_text(&k);
	if (fflush(stdout) != 0) {
		log_error("writing the list: %s", strerror(errno));
		code = EXIT_SYSTEM;
	}
out:
	kstate_free(&k);
	nl_close(&s);
	return code;
}

int main(int argc, char **argv)
{
	struct options o;
	const char *cmd;

	log_open("netnat");
	parse_options(argc, argv, &o);
	if (o.n_words == 0)
		usage();
	cmd = o.words[0];
	if (o.json && strcmp(cmd, "list") != 0) {
		log_error("--json goes with list");
		usage();
	}
	if (strcmp(cmd, "masquerade") == 0 || strcmp(cmd, "forward") == 0)
		return cmd_entry(&o);
	if (strcmp(cmd, "apply") == 0)
		return cmd_apply(&o, false);
	if (strcmp(cmd, "check") == 0)
		return cmd_apply(&o, true);
	if (strcmp(cmd, "flush") == 0)
		return cmd_flush(&o);
	if (strcmp(cmd, "list") == 0)
		return cmd_list(&o);
	log_error("%.64s: unknown command", cmd);
	usage();
}
