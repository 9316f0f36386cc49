/* The seccomp keys' syntax (syscall-filter.h). Plain parsing, no I/O. */
#include "syscall-filter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "syscall-groups.h"

#define WORD_MAX 64
#define GROUP_DEPTH_MAX 4 /* @system-service -> @default: two levels today */

struct name_value {
	const char *name;
	int value;
};

static int compare_name(const void *key, const void *entry)
{
	return strcmp(key, ((const struct syscall_name *)entry)->name);
}

int syscall_name_index(const char *name)
{
	const struct syscall_name *n =
		bsearch(name, syscall_names, syscall_name_count, sizeof *syscall_names, compare_name);
	return n ? (int)(n - syscall_names) : -1;
}

const char *syscall_group_members(const char *name)
{
	for (size_t i = 0; i < syscall_group_count; i++)
		if (strcmp(syscall_groups[i].name, name) == 0)
			return syscall_groups[i].members;
	return NULL;
}

static int fail(char *err, size_t size, const char *fmt, const char *word)
{
	snprintf(err, size, fmt, word);
	errno = EINVAL;
	return -1;
}

/* ---- errno names ---- */

#define E(x) { #x, x }
static const struct name_value errno_names[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(ENOEXEC),
	E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST),
	E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE),
	E(ENOTTY), E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK), E(EPIPE),
	E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK), E(ENOSYS), E(ENOTEMPTY),
	E(ELOOP), E(ENOMSG), E(EIDRM), E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR), E(ENOLINK),
	E(EPROTO), E(EBADMSG), E(EOVERFLOW), E(EILSEQ), E(EUSERS), E(ENOTSOCK),
	E(EDESTADDRREQ), E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT), E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT), E(EOPNOTSUPP), E(ENOTSUP), E(EPFNOSUPPORT), E(EAFNOSUPPORT),
	E(EADDRINUSE), E(EADDRNOTAVAIL), E(ENETDOWN), E(ENETUNREACH), E(ENETRESET),
	E(ECONNABORTED), E(ECONNRESET), E(ENOBUFS), E(EISCONN), E(ENOTCONN), E(ESHUTDOWN),
	E(ETIMEDOUT), E(ECONNREFUSED), E(EHOSTDOWN), E(EHOSTUNREACH), E(EALREADY),
	E(EINPROGRESS), E(ESTALE), E(EUCLEAN), E(EDQUOT), E(ECANCELED), E(EOWNERDEAD),
	E(ENOTRECOVERABLE), E(ERFKILL), E(EHWPOISON), E(ENOMEDIUM), E(EMEDIUMTYPE),
	E(ENOKEY), E(EKEYEXPIRED), E(EKEYREVOKED), E(EKEYREJECTED), E(EREMOTEIO),
	E(ENOTUNIQ), E(EBADFD), E(EREMCHG), E(ELIBACC), E(ELIBBAD), E(ELIBSCN), E(ELIBMAX),
	E(ELIBEXEC), E(ERESTART), E(ESTRPIPE), E(ENOTNAM), E(ENAVAIL), E(EISNAM),
	E(ECHRNG), E(EL2NSYNC), E(EL3HLT), E(EL3RST), E(ELNRNG), E(EUNATCH), E(ENOCSI),
	E(EL2HLT), E(EBADE), E(EBADR), E(EXFULL), E(ENOANO), E(EBADRQC), E(EBADSLT),
	E(EBFONT), E(ENONET), E(ENOPKG), E(EREMOTE), E(EADV), E(ESRMNT), E(ECOMM),
	E(EMULTIHOP), E(EDOTDOT), E(ETOOMANYREFS), E(EWOULDBLOCK), E(EDEADLOCK),
};
#undef E

int syscall_errno_parse(const char *s, int *out)
{
	unsigned long n;

	for (size_t i = 0; i < sizeof errno_names / sizeof *errno_names; i++) {
		if (strcmp(s, errno_names[i].name) == 0) {
			*out = errno_names[i].value;
			return 0;
		}
	}
	if (parse_ulong(s, 0, SYSCALL_ERRNO_MAX, &n) < 0)
		return -1;
	*out = (int)n;
	return 0;
}

int syscall_action_parse(const char *s, int *out)
{
	if (strcmp(s, "kill") == 0) {
		*out = SYSCALL_ACTION_KILL;
		return 0;
	}
	return syscall_errno_parse(s, out);
}

/* ---- SystemCallFilter= ---- */

void syscall_filter_init(struct syscall_filter *f)
{
	memset(f, 0, sizeof *f);
}

struct filter_step {
	struct syscall_filter *f;
	bool add;   /* add to the list (same kind as the first line) or remove */
	int action; /* for a deny list */
	char *err;
	size_t size;
};

static int apply_word(struct filter_step *s, const char *word, int depth);

static int apply_group(struct filter_step *s, const char *group, int depth)
{
	const char *m = syscall_group_members(group);
	char word[WORD_MAX];

	if (!m)
		return fail(s->err, s->size, "unknown system call group %s", group);
	if (depth >= GROUP_DEPTH_MAX)
		return fail(s->err, s->size, "system call group %s nests too deeply", group);
	while (*m) {
		size_t len = strcspn(m, " ");
		if (len >= sizeof word)
			return fail(s->err, s->size, "system call name too long in %s", group);
		memcpy(word, m, len);
		word[len] = '\0';
		if (apply_word(s, word, depth + 1) < 0)
			return -1;
		m += len;
		m += strspn(m, " ");
	}
	return 0;
}

static int apply_word(struct filter_step *s, const char *word, int depth)
{
	int i;

	if (word[0] == '@')
		return apply_group(s, word, depth);
	if ((i = syscall_name_index(word)) < 0)
		return fail(s->err, s->size, "unknown system call %s", word);
	s->f->listed[i] = s->add;
	s->f->action[i] = (int16_t)(s->add ? s->action : SYSCALL_ACTION_DEFAULT);
	return 0;
}

/* One word of a line: NAME or @GROUP, with an optional :ERRNO or :kill. */
static int filter_word(struct filter_step *s, char *word)
{
	char *colon = strchr(word, ':');

	s->action = SYSCALL_ACTION_DEFAULT;
	if (colon) {
		*colon = '\0';
		if (syscall_action_parse(colon + 1, &s->action) < 0)
			return fail(s->err, s->size, "%s: expected an errno name, 0-4095 or kill",
				    colon + 1);
	}
	return apply_word(s, word, 0);
}

int syscall_filter_add(struct syscall_filter *f, const char *line, char *err, size_t size)
{
	struct filter_step s = { .f = f, .err = err, .size = size };
	char copy[4096], *save = NULL;
	bool invert;

	line += strspn(line, " \t");
	if (!*line) {
		syscall_filter_init(f);
		return 0;
	}
	invert = *line == '~';
	if (invert)
		line++;
	if (str_copy(copy, sizeof copy, line) < 0)
		return fail(err, size, "%s", "line too long");
	if (!f->set) {
		f->set = true;
		f->allow_list = !invert;
		/* systemd: an allow list always allows what every program needs to exist. */
		s.add = true;
		if (f->allow_list && apply_group(&s, "@default", 0) < 0)
			return -1;
	}
	s.add = invert != f->allow_list;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (filter_word(&s, w) < 0)
			return -1;
	return 0;
}

/* ---- RestrictAddressFamilies= ---- */

#define AF(x, n) { "AF_" #x, n }
static const struct name_value families[] = {
	AF(UNIX, 1), AF(LOCAL, 1), AF(INET, 2), AF(AX25, 3), AF(IPX, 4), AF(APPLETALK, 5),
	AF(NETROM, 6), AF(BRIDGE, 7), AF(ATMPVC, 8), AF(X25, 9), AF(INET6, 10), AF(ROSE, 11),
	AF(DECnet, 12), AF(NETBEUI, 13), AF(SECURITY, 14), AF(KEY, 15), AF(NETLINK, 16),
	AF(ROUTE, 16), AF(PACKET, 17), AF(ASH, 18), AF(ECONET, 19), AF(ATMSVC, 20), AF(RDS, 21),
	AF(SNA, 22), AF(IRDA, 23), AF(PPPOX, 24), AF(WANPIPE, 25), AF(LLC, 26), AF(IB, 27),
	AF(MPLS, 28), AF(CAN, 29), AF(TIPC, 30), AF(BLUETOOTH, 31), AF(IUCV, 32), AF(RXRPC, 33),
	AF(ISDN, 34), AF(PHONET, 35), AF(IEEE802154, 36), AF(CAIF, 37), AF(ALG, 38),
	AF(NFC, 39), AF(VSOCK, 40), AF(KCM, 41), AF(QIPCRTR, 42), AF(SMC, 43), AF(XDP, 44),
	AF(MCTP, 45),
};
#undef AF

void af_filter_init(struct af_filter *f)
{
	memset(f, 0, sizeof *f);
}

static int family_number(const char *name)
{
	for (size_t i = 0; i < sizeof families / sizeof *families; i++)
		if (strcmp(name, families[i].name) == 0)
			return families[i].value;
	return -1;
}

int af_filter_add(struct af_filter *f, const char *line, char *err, size_t size)
{
	char copy[1024], *save = NULL;
	bool invert, add;

	line += strspn(line, " \t");
	if (!*line) {
		af_filter_init(f);
		return 0;
	}
	if (strcmp(line, "none") == 0) { /* systemd: an empty allow list */
		f->set = f->allow_list = true;
		f->families = 0;
		return 0;
	}
	invert = *line == '~';
	if (invert)
		line++;
	if (str_copy(copy, sizeof copy, line) < 0)
		return fail(err, size, "%s", "line too long");
	if (!f->set) {
		f->set = true;
		f->allow_list = !invert;
	}
	add = invert != f->allow_list;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		int n = family_number(w);
		if (n < 0)
			return fail(err, size, "unknown address family %s", w);
		if (add)
			f->families |= 1ull << n;
		else
			f->families &= ~(1ull << n);
	}
	return 0;
}

/* ---- RestrictNamespaces= ---- */

static const struct name_value namespaces[] = {
	{ "cgroup", 0x02000000 }, { "ipc", 0x08000000 }, { "net", 0x40000000 },
	{ "mnt", 0x00020000 },    { "pid", 0x20000000 }, { "user", 0x10000000 },
	{ "uts", 0x04000000 },
};

int namespaces_add(uint32_t *allowed, bool *first_done, const char *line, char *err,
		   size_t size)
{
	char copy[256], *save = NULL;
	uint32_t listed = 0;
	bool invert, b;

	line += strspn(line, " \t");
	if (!*line || parse_bool(line, &b) == 0) {
		*allowed = !*line || !b ? NAMESPACES_ALL : 0;
		*first_done = false;
		return 0;
	}
	invert = *line == '~';
	if (invert)
		line++;
	if (str_copy(copy, sizeof copy, line) < 0)
		return fail(err, size, "%s", "line too long");
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t i;
		for (i = 0; i < sizeof namespaces / sizeof *namespaces; i++)
			if (strcmp(w, namespaces[i].name) == 0)
				break;
		if (i == sizeof namespaces / sizeof *namespaces)
			return fail(err, size, "unknown namespace type %s (expected cgroup, ipc, net, "
					       "mnt, pid, user or uts)", w);
		listed |= (uint32_t)namespaces[i].value;
	}
	if (!*first_done)
		*allowed = invert ? NAMESPACES_ALL & ~listed : listed;
	else if (invert)
		*allowed &= ~listed;
	else
		*allowed |= listed;
	*first_done = true;
	return 0;
}

/* ---- SystemCallArchitectures= ---- */

#if defined(__x86_64__)
#define NATIVE_ARCH "x86-64"
#elif defined(__aarch64__)
#define NATIVE_ARCH "arm64"
#elif defined(__i386__)
#define NATIVE_ARCH "x86"
#elif defined(__arm__)
#define NATIVE_ARCH "arm"
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_ARCH "riscv64"
#else
#define NATIVE_ARCH "native"
#endif

int syscall_archs_parse(const char *line, bool *native_only, bool *foreign, char *err,
			size_t size)
{
	static const char *const known[] = {
		"x86", "x86-64", "x32", "arm", "arm64", "ia64", "loongarch64", "mips", "mips-le",
		"mips64", "mips64-le", "mips64-n32", "mips64-le-n32", "parisc", "parisc64", "ppc",
		"ppc64", "ppc64-le", "riscv64", "s390", "s390x",
	};
	char copy[512], *save = NULL;

	*native_only = false;
	*foreign = false;
	if (str_copy(copy, sizeof copy, line) < 0)
		return fail(err, size, "%s", "line too long");
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t i;
		*native_only = true;
		if (strcmp(w, "native") == 0 || strcmp(w, NATIVE_ARCH) == 0)
			continue;
		for (i = 0; i < sizeof known / sizeof *known; i++)
			if (strcmp(w, known[i]) == 0)
				break;
		if (i == sizeof known / sizeof *known)
			return fail(err, size, "unknown architecture %s", w);
		*foreign = true;
	}
	return 0;
}
