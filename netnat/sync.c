#include "sync.h"

#include "exitcode.h"
#include "kstate.h"
#include "log.h"
#include "netnat.h"
#include "ruleset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Concurrent writers make the kernel refuse a batch built from a stale read; each retry
 * reads again. Enough for dozens of parallel invocations. */
#define SYNC_ATTEMPTS 100
#define RETRY_PAUSE_MAX_US 2000

/* Modules a NAT-capable kernel needs (loaded or built in); named in error messages. */
#define NAT_MODULES "nf_tables nf_nat nft_chain_nat nft_nat nft_masq nft_fib_ipv4 nft_fib_ipv6"

static const char *verb_of(enum msg_kind kind)
{
	switch (kind) {
	case KIND_NEWTABLE: return "create table";
	case KIND_DELTABLE: return "delete table";
	case KIND_NEWCHAIN: return "create chain";
	case KIND_NEWSET: return "create set";
	case KIND_NEWRULE: return "add a rule to chain";
	case KIND_NEWELEM: return "add elements to set";
	case KIND_DELELEM: return "delete elements from set";
	case KIND_BATCH: break;
	}
	return "start the batch";
}

static const char *rule_modules(enum nat_family f, const char *chain)
{
	if (strcmp(chain, "postrouting") == 0)
		return "nft_masq and nf_nat";
	if (strcmp(chain, "prerouting") == 0)
		return f == NAT_IPV4 ? "nft_fib_ipv4 and nft_nat" : "nft_fib_ipv6 and nft_nat";
	return "nft_nat";
}

int sync_explain_errno(int err, const char *doing)
{
	switch (err) {
	case EPERM:
	case EACCES:
		log_error("%s: permission denied (needs CAP_NET_ADMIN in this network namespace)", doing);
		return NETNAT_EXIT_PERMISSION;
	case EPROTONOSUPPORT:
	case EAFNOSUPPORT:
	case EOPNOTSUPP:
	case EINVAL:
		log_error("%s: the kernel has no nf_tables support (%s); load nfnetlink and nf_tables",
			  doing, strerror(err));
		return NETNAT_EXIT_UNSUPPORTED;
	}
	log_error("%s: %s", doing, strerror(err));
	return EXIT_SYSTEM;
}

static int explain_unsupported(const struct nl_failure *fail, const char *where)
{
	const struct msg_info *m = &fail->msg;

	if (m->kind == KIND_NEWTABLE)
		log_error("%s: no nf_tables support for family %s (%s); load nf_tables "
			  "(CONFIG_NF_TABLES_%s)", where, nat_family_name(m->family), strerror(fail->error),
			  m->family == NAT_IPV4 ? "IPV4" : "IPV6");
	else if (m->kind == KIND_NEWCHAIN)
		log_error("%s: the kernel has no nat chain type (%s); load nft_chain_nat and nf_nat",
			  where, strerror(fail->error));
	else if (m->kind == KIND_NEWRULE)
		log_error("%s: the kernel lacks an expression this rule uses (%s); load %s",
			  where, strerror(fail->error), rule_modules(m->family, m->object));
	else
		log_error("%s: the kernel lacks nf_tables support (%s); NAT needs %s", where,
			  strerror(fail->error), NAT_MODULES);
	return NETNAT_EXIT_UNSUPPORTED;
}

static int explain_failure(const struct nl_failure *fail)
{
	const struct msg_info *m = &fail->msg;
	char where[160];
	int e = fail->error;

	if (m->kind == KIND_BATCH)
		snprintf(where, sizeof where, "nftables batch");
	else
		snprintf(where, sizeof where, "%s %s in table %s %s", verb_of(m->kind),
			 m->object ? m->object : "", nat_family_name(m->family), NETNAT_TABLE);
	if (e == EPERM || e == EACCES) {
		log_error("%s: permission denied (needs CAP_NET_ADMIN in this network namespace)", where);
		return NETNAT_EXIT_PERMISSION;
	}
	if (e == ETIMEDOUT) {
		log_error("%s: the kernel did not acknowledge every message", where);
		return EXIT_SYSTEM;
	}
	if (m->kind == KIND_NEWRULE && m->family == NAT_IPV6 && e == EOVERFLOW) {
		log_error("%s: IPv6 port forwarding through a map needs Linux 5.8 or newer", where);
		return NETNAT_EXIT_UNSUPPORTED;
	}
	if (e == EOPNOTSUPP || e == EAFNOSUPPORT || e == EPROTONOSUPPORT ||
	    (e == ENOENT && (m->kind == KIND_NEWCHAIN || m->kind == KIND_NEWRULE)))
		return explain_unsupported(fail, where);
	if (m->kind == KIND_NEWELEM && (e == EEXIST || e == ENOTEMPTY)) {
		log_error("%s: conflicting entry already in the set", where);
		return NETNAT_EXIT_CONFLICT;
	}
	if (m->kind == KIND_DELELEM && e == ENOENT) {
		log_error("%s: entry not in the set", where);
		return NETNAT_EXIT_CONFLICT;
	}
	log_error("%s: %s%s%s", where, strerror(e), fail->extack[0] ? ": " : "", fail->extack);
	return NETNAT_EXIT_REJECTED;
}

/* The batch turning k into want: element changes for intact tables, a rebuild holding
 * every wanted entry for a missing or damaged one. */
static int plan(struct nlbatch *b, const struct kstate *k, const struct nat_state *want)
{
	struct nat_diff d;
	int err = 0;

	if (nat_diff(&k->entries, want, &d) < 0)
		return -1;
	for (enum nat_family f = 0; !err && f < NAT_FAMILIES; f++) {
		const struct kfamily *kf = &k->fam[f];
		if (kf->table && kf->intact) {
			err = ruleset_build_elements(b, f, &d.del, false) ||
			      ruleset_build_elements(b, f, &d.add, true);
			continue;
		}
		if (!kf->table && !nat_state_count(want, f))
			continue;
		if (kf->table)
			log_warn("table %s %s: %s; rebuilding it", nat_family_name(f), NETNAT_TABLE,
				 kf->damage);
		else if (k->fam[!f].table || k->entries.n_masq || k->entries.n_fwd)
			log_debug("table %s %s: missing; creating it", nat_family_name(f), NETNAT_TABLE);
		err = ruleset_build_table(b, f, kf->table) || ruleset_build_elements(b, f, want, true);
	}
	nat_diff_free(&d);
	return err ? -1 : 0;
}

static int plan_flush(struct nlbatch *b, const struct kstate *k)
{
	for (enum nat_family f = 0; f < NAT_FAMILIES; f++)
		if (k->fam[f].table && ruleset_build_table_delete(b, f) < 0)
			return -1;
	return 0;
}

static void pause_before_retry(void)
{
	struct timespec ts = { 0, (long)(rand() % RETRY_PAUSE_MAX_US) * 1000 };
	nanosleep(&ts, NULL);
}

/* One read-compute-send round. Returns 0 done, -1 retry, or an exit code. */
static int attempt(struct nlsock *s, const struct kscope *scope, want_fn fn, void *ctx,
		   struct kstate *k)
{
	struct nat_state want;
	struct nlbatch b;
	struct nl_failure fail;
	int code = 0;

	/* Rebuilding a damaged table needs every entry it still holds. */
	if (kstate_read(s, k, scope) < 0 ||
	    (scope != &kscope_all && !kstate_intact(k) && kstate_read(s, k, &kscope_all) < 0))
		return errno == EINTR ? -1 : sync_explain_errno(errno, "reading the ruleset");
	nat_state_init(&want);
	batch_init(&b, nl_next_seq(s));
	s->seq += 1u << 16; /* leave room for this batch's sequence numbers */
	if (fn && (code = fn(&k->entries, &want, ctx)) != 0)
		goto out;
	if (batch_open(&b, k->genid) < 0 || (fn ? plan(&b, k, &want) : plan_flush(&b, k)) < 0 ||
	    (b.n_changes && getenv("NETNAT_TEST_FAIL_LAST") && ruleset_build_refused(&b) < 0) ||
	    batch_close(&b) < 0) {
		log_error("building the batch: out of memory");
		code = EXIT_SYSTEM;
		goto out;
	}
	if (!b.n_changes) {
		log_debug("nothing to change");
		goto out;
	}
	log_debug("sending %zu messages (%zu bytes)", b.n_changes, b.len);
	if (nl_send_batch(s, &b, &fail) < 0)
		code = fail.error == ERESTART ? -1 : explain_failure(&fail);
out:
	batch_free(&b);
	nat_state_free(&want);
	return code;
}

int sync_run(struct nlsock *s, const struct kscope *scope, want_fn fn, void *ctx)
{
	struct kstate k;
	int code = -1;

	srand((unsigned)getpid() ^ (unsigned)time(NULL));
	kstate_init(&k);
	for (int i = 0; i < SYNC_ATTEMPTS && code == -1; i++) {
		if (i)
			pause_before_retry();
		code = attempt(s, scope, fn, ctx, &k);
		if (code == -1)
			log_debug("the ruleset changed while netnat worked; starting over");
	}
	kstate_free(&k);
	if (code == -1) {
		log_error("the ruleset kept changing; gave up after %d attempts", SYNC_ATTEMPTS);
		code = NETNAT_EXIT_REJECTED;
	}
	return code;
}
