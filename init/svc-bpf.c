/* See svc-bpf.h. The instruction encoding is the kernel's (Documentation/bpf/
 * standardization/instruction-set.rst); the few constants needed are spelled out here so
 * the build does not depend on <linux/bpf.h> being in the libc's include path. */
#include "svc-bpf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "io.h"

/* ---- the instruction set ---- */
enum {
	LDX_W = 0x61,        /* dst = *(u32 *)(src + off) */
	MOV64_X = 0xbf, MOV64_K = 0xb7, MOV32_X = 0xbc,
	AND64_K = 0x57, AND32_K = 0x54, RSH64_K = 0x77, ADD64_K = 0x07,
	JEQ_K = 0x15, JNE_K = 0x55, JNE32_K = 0x56, CALL = 0x85, EXIT = 0x95,
};
#define R0 0
#define R1 1
#define R2 2
#define R3 3
#define R4 4
#define R5 5
#define R6 6
#define R7 7
#define R8 8
#define R10 10

/* bpf(2) commands, program and attach types, helpers (uapi/linux/bpf.h) */
#define BPF_PROG_LOAD 5
#define BPF_PROG_ATTACH 8
#define PROG_TYPE_CGROUP_SKB 8
#define PROG_TYPE_CGROUP_DEVICE 15
#define ATTACH_INET_INGRESS 0
#define ATTACH_INET_EGRESS 1
#define ATTACH_DEVICE 6
#define FUNC_SKB_LOAD_BYTES 26
#define DEVCG_BLOCK 1
#define DEVCG_CHAR 2
#define SKB_PROTOCOL_OFF 16 /* offsetof(struct __sk_buff, protocol) */

struct asm_buf {
	struct svc_bpf_insn *insn;
	size_t n, cap;
	bool overflow;
};

static size_t emit(struct asm_buf *a, uint8_t code, int dst, int src, int16_t off, int32_t imm)
{
	if (a->n >= a->cap) {
		a->overflow = true;
		return a->n;
	}
	a->insn[a->n] = (struct svc_bpf_insn){ code, (uint8_t)(dst | src << 4), off, imm };
	return a->n++;
}

/* A forward jump emitted earlier at index at now lands on the next instruction. */
static void land_here(struct asm_buf *a, size_t at)
{
	if (!a->overflow && at < a->n)
		a->insn[at].off = (int16_t)(a->n - at - 1);
}

static void ret(struct asm_buf *a, int verdict)
{
	emit(a, MOV64_K, R0, 0, 0, verdict);
	emit(a, EXIT, 0, 0, 0, 0);
}

/* ---- devices ---- */

static const struct { const char *path; uint8_t access; } standard_devices[] = {
	/* DevicePolicy=closed (and auto with a DeviceAllow= list): systemd's set */
	{ "/dev/null", 7 }, { "/dev/zero", 7 }, { "/dev/full", 7 }, { "/dev/random", 7 },
	{ "/dev/urandom", 7 }, { "/dev/tty", 7 }, { "/dev/ptmx", 7 },
};

static uint8_t access_bits(const char *mode)
{
	uint8_t a = 0;

	if (!*mode)
		return 7; /* systemd: no mode means rwm */
	for (; *mode; mode++)
		a |= *mode == 'm' ? 1 : *mode == 'r' ? 2 : *mode == 'w' ? 4 : 0;
	return a;
}

struct rule_list {
	struct svc_bpf_device_rule *out;
	size_t n, cap;
};

static void rule_add(struct rule_list *l, char type, int32_t major, int32_t minor, uint8_t access)
{
	if (l->n < l->cap)
		l->out[l->n] = (struct svc_bpf_device_rule){ type, major, minor, access };
	l->n++;
}

/* "char-NAME"/"block-NAME": every major of that section of /proc/devices whose driver
 * name matches NAME (a glob). */
static void rules_by_class(struct rule_list *l, const char *proc_devices, char type,
			   const char *pattern, uint8_t access)
{
	const char *section = type == 'c' ? "Character devices:" : "Block devices:";
	const char *p = proc_devices ? strstr(proc_devices, section) : NULL;

	if (!p)
		return;
	p = strchr(p, '\n');
	while (p && *++p && *p != '\n') { /* a blank line ends the section */
		unsigned major;
		char name[64];
		if (sscanf(p, "%u %63s", &major, name) == 2 && fnmatch(pattern, name, 0) == 0)
			rule_add(l, type, (int32_t)major, -1, access);
		p = strchr(p, '\n');
	}
}

static void rule_from_path(struct rule_list *l, svc_bpf_stat_fn *stat_dev, const char *path,
			   uint8_t access)
{
	uint32_t major, minor;
	char type;

	/* as systemd: a device that does not exist (yet) is skipped */
	if (stat_dev(path, &type, &major, &minor) == 0)
		rule_add(l, type, (int32_t)major, (int32_t)minor, access);
}

int svc_bpf_device_rules(const struct service *s, svc_bpf_stat_fn *stat_dev,
			 const char *proc_devices, struct svc_bpf_device_rule *out, size_t cap)
{
	const struct service_exec_more *m = &s->execmore;
	const char *list = service_str(s, m->device_allow);
	struct rule_list l = { out, 0, cap };

	if (m->device_policy == DEVICE_POLICY_AUTO && !m->device_allow)
		return -1;
	if (m->device_policy != DEVICE_POLICY_STRICT) {
		for (size_t i = 0; i < sizeof standard_devices / sizeof *standard_devices; i++)
			rule_from_path(&l, stat_dev, standard_devices[i].path, standard_devices[i].access);
		rule_add(&l, 'c', 136, -1, 6); /* char-pts rw: the ptys */
	}
	while (*list) {
		char spec[256], mode[8] = "";
		size_t len = strcspn(list, "\n");
		char line[300];
		snprintf(line, sizeof line, "%.*s", (int)len, list);
		if (sscanf(line, "%255s %7s", spec, mode) >= 1) {
			uint8_t access = access_bits(mode);
			if (strncmp(spec, "char-", 5) == 0)
				rules_by_class(&l, proc_devices, 'c', spec + 5, access);
			else if (strncmp(spec, "block-", 6) == 0)
				rules_by_class(&l, proc_devices, 'b', spec + 6, access);
			else
				rule_from_path(&l, stat_dev, spec, access);
		}
		list += len;
		if (*list)
			list++;
	}
	return l.n > cap ? (int)cap : (int)l.n;
}

int svc_bpf_device_program(const struct svc_bpf_device_rule *rules, size_t n,
			   struct svc_bpf_insn *out, size_t cap)
{
	struct asm_buf a = { out, 0, cap, false };

	/* struct bpf_cgroup_dev_ctx { u32 access_type; u32 major; u32 minor; } */
	emit(&a, LDX_W, R2, R1, 0, 0);
	emit(&a, MOV64_X, R3, R2, 0, 0);
	emit(&a, AND64_K, R3, 0, 0, 0xffff);   /* r3: the device type */
	emit(&a, MOV64_X, R4, R2, 0, 0);
	emit(&a, RSH64_K, R4, 0, 0, 16);        /* r4: the access asked for */
	emit(&a, LDX_W, R5, R1, 4, 0);          /* r5: major */
	emit(&a, LDX_W, R6, R1, 8, 0);          /* r6: minor */
	for (size_t i = 0; i < n; i++) {
		const struct svc_bpf_device_rule *r = &rules[i];
		size_t skip[4], k = 0;
		skip[k++] = emit(&a, JNE_K, R3, 0, 0, r->type == 'b' ? DEVCG_BLOCK : DEVCG_CHAR);
		if (r->major >= 0)
			skip[k++] = emit(&a, JNE_K, R5, 0, 0, r->major);
		if (r->minor >= 0)
			skip[k++] = emit(&a, JNE_K, R6, 0, 0, r->minor);
		/* allowed when nothing is asked beyond the rule's access */
		emit(&a, MOV64_X, R7, R4, 0, 0);
		emit(&a, AND64_K, R7, 0, 0, ~(int32_t)r->access & 7);
		skip[k++] = emit(&a, JNE_K, R7, 0, 0, 0);
		ret(&a, 1);
		for (size_t j = 0; j < k; j++)
			land_here(&a, skip[j]);
	}
	ret(&a, 0);
	return a.overflow ? -1 : (int)a.n;
}

/* ---- IP addresses ---- */

struct prefix {
	int family;
	uint8_t addr[16];
	unsigned bits;
};

/* One IPAddress*= word as up to two prefixes (the named sets have a v4 and a v6 part). */
static size_t word_prefixes(const char *w, size_t len, struct prefix *out)
{
	static const struct { const char *word, *v4, *v6; } named[] = {
		{ "any", "0.0.0.0/0", "::/0" },
		{ "localhost", "127.0.0.0/8", "::1/128" },
		{ "link-local", "169.254.0.0/16", "fe80::/64" },
		{ "multicast", "224.0.0.0/4", "ff00::/8" },
	};
	char text[64], *slash;
	unsigned long bits;

	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		if (strlen(named[i].word) == len && strncmp(w, named[i].word, len) == 0)
			return word_prefixes(named[i].v4, strlen(named[i].v4), out) +
			       word_prefixes(named[i].v6, strlen(named[i].v6), out + 1);
	if (len >= sizeof text)
		return 0;
	memcpy(text, w, len);
	text[len] = '\0';
	slash = strchr(text, '/');
	if (slash)
		*slash++ = '\0';
	out->family = strchr(text, ':') ? AF_INET6 : AF_INET;
	memset(out->addr, 0, sizeof out->addr);
	if (inet_pton(out->family, text, out->addr) != 1)
		return 0;
	bits = out->family == AF_INET ? 32 : 128;
	if (slash) {
		char *end;
		unsigned long b = strtoul(slash, &end, 10);
		if (*end || b > bits)
			return 0;
		bits = b;
	}
	out->bits = (unsigned)bits;
	return 1;
}

/* The 32-bit word i of a prefix's mask and network, as a load from memory sees them. */
static void prefix_word(const struct prefix *p, size_t i, uint32_t *mask, uint32_t *net)
{
	uint8_t m[4];

	for (size_t b = 0; b < 4; b++) {
		size_t bit = (i * 4 + b) * 8;
		unsigned left = p->bits > bit ? p->bits - (unsigned)bit : 0;
		m[b] = left >= 8 ? 0xff : (uint8_t)(0xff00u >> left);
	}
	memcpy(mask, m, 4);
	memcpy(net, p->addr + i * 4, 4);
	*net &= *mask;
}

/* The address was loaded to r10-16; for each prefix of family in list: on a match,
 * return verdict. True once a prefix matches everything (/0): what would follow could
 * never run, and the verifier refuses unreachable instructions. */
static bool match_list(struct asm_buf *a, const char *list, int family, int verdict)
{
	while (*list) {
		size_t len = strcspn(list, " \t");
		struct prefix p[2];
		size_t n = len ? word_prefixes(list, len, p) : 0;
		for (size_t i = 0; i < n; i++) {
			size_t skip[4], k = 0;
			if (p[i].family != family)
				continue;
			for (size_t w = 0; w < (family == AF_INET ? 1u : 4u); w++) {
				uint32_t mask, net;
				prefix_word(&p[i], w, &mask, &net);
				if (!mask)
					continue;
				emit(a, LDX_W, R8, R10, (int16_t)(-16 + 4 * (int)w), 0);
				emit(a, AND32_K, R8, 0, 0, (int32_t)mask);
				skip[k++] = emit(a, JNE32_K, R8, 0, 0, (int32_t)net);
			}
			ret(a, verdict);
			if (k == 0)
				return true;
			for (size_t j = 0; j < k; j++)
				land_here(a, skip[j]);
		}
		list += len;
		list += strspn(list, " \t");
	}
	return false;
}

/* Allow wins over deny; an address in neither list passes. */
static void match_both(struct asm_buf *a, const char *allow, const char *deny, int family)
{
	if (!match_list(a, allow, family, 1) && !match_list(a, deny, family, 0))
		ret(a, 1);
}

/* bpf_skb_load_bytes(skb, offset, r10-16, len); a packet too short passes. */
static void load_address(struct asm_buf *a, int offset, int len)
{
	size_t ok;

	emit(a, MOV64_X, R1, R6, 0, 0);
	emit(a, MOV64_K, R2, 0, 0, offset);
	emit(a, MOV64_X, R3, R10, 0, 0);
	emit(a, ADD64_K, R3, 0, 0, -16);
	emit(a, MOV64_K, R4, 0, 0, len);
	emit(a, CALL, 0, 0, 0, FUNC_SKB_LOAD_BYTES);
	ok = emit(a, JEQ_K, R0, 0, 0, 0);
	ret(a, 1);
	land_here(a, ok);
}

int svc_bpf_ip_program(const struct service *s, int ingress, struct svc_bpf_insn *out,
		       size_t cap)
{
	const char *allow = service_str(s, s->execmore.ip_allow);
	const char *deny = service_str(s, s->execmore.ip_deny);
	struct asm_buf a = { out, 0, cap, false };
	size_t to_v4, to_v6;

	emit(&a, MOV64_X, R6, R1, 0, 0);
	emit(&a, LDX_W, R2, R6, SKB_PROTOCOL_OFF, 0);
	to_v4 = emit(&a, JEQ_K, R2, 0, 0, htons(0x0800));
	to_v6 = emit(&a, JEQ_K, R2, 0, 0, htons(0x86dd));
	ret(&a, 1);
	/* IPv4: saddr at 12, daddr at 16; allow wins over deny, the rest passes */
	land_here(&a, to_v4);
	load_address(&a, ingress ? 12 : 16, 4);
	match_both(&a, allow, deny, AF_INET);
	/* IPv6: saddr at 8, daddr at 24 */
	land_here(&a, to_v6);
	load_address(&a, ingress ? 8 : 24, 16);
	match_both(&a, allow, deny, AF_INET6);
	return a.overflow ? -1 : (int)a.n;
}

/* ---- loading and attaching ---- */

/* The leading fields of union bpf_attr for the two commands used. */
struct prog_load_attr {
	uint32_t prog_type, insn_cnt;
	uint64_t insns, license;
	uint32_t log_level, log_size;
	uint64_t log_buf;
	uint32_t kern_version, prog_flags;
	char pad[128 - 40];
};
struct prog_attach_attr {
	uint32_t target_fd, attach_bpf_fd, attach_type, attach_flags;
	char pad[128 - 16];
};

static int host_stat_dev(const char *path, char *type, uint32_t *major, uint32_t *minor)
{
	struct stat st;

	if (stat(path, &st) < 0 || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
		return -1;
	*type = S_ISCHR(st.st_mode) ? 'c' : 'b';
	*major = major(st.st_rdev);
	*minor = minor(st.st_rdev);
	return 0;
}

static int load_and_attach(int cg_fd, uint32_t prog_type, uint32_t attach_type,
			   const struct svc_bpf_insn *insns, int n)
{
	struct prog_load_attr load;
	struct prog_attach_attr attach;
	int prog, r, saved;

	memset(&load, 0, sizeof load);
	load.prog_type = prog_type;
	load.insn_cnt = (uint32_t)n;
	load.insns = (uint64_t)(uintptr_t)insns;
	load.license = (uint64_t)(uintptr_t)"MIT";
	prog = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &load, sizeof load);
	if (prog < 0)
		return -1;
	memset(&attach, 0, sizeof attach);
	attach.target_fd = (uint32_t)cg_fd;
	attach.attach_bpf_fd = (uint32_t)prog;
	attach.attach_type = attach_type;
	/* no flags: a later attach (the next start) replaces this program */
	r = (int)syscall(SYS_bpf, BPF_PROG_ATTACH, &attach, sizeof attach);
	saved = errno;
	close(prog); /* the attachment holds the program */
	errno = saved;
	return r;
}

static int attach_devices(int cg_fd, const struct service *s, struct svc_bpf_insn *insns,
			  char *err, size_t errlen)
{
	struct svc_bpf_device_rule rules[SVC_BPF_DEVICE_RULES_MAX];
	char devices[4096];
	ssize_t got = -1;
	int fd = open("/proc/devices", O_RDONLY | O_CLOEXEC), n;

	if (fd >= 0) {
		got = io_read_full(fd, devices, sizeof devices - 1);
		close(fd);
	}
	devices[got > 0 ? got : 0] = '\0';
	n = svc_bpf_device_rules(s, host_stat_dev, devices, rules, SVC_BPF_DEVICE_RULES_MAX);
	if (n < 0)
		return 0;
	n = svc_bpf_device_program(rules, (size_t)n, insns, SVC_BPF_INSNS_MAX);
	if (n < 0 || load_and_attach(cg_fd, PROG_TYPE_CGROUP_DEVICE, ATTACH_DEVICE, insns, n) < 0) {
		snprintf(err, errlen, "DeviceAllow=/DevicePolicy=: %s; device access is NOT "
			 "restricted", n < 0 ? "too many rules" : strerror(errno));
		return -1;
	}
	return 0;
}

static int attach_ip(int cg_fd, const struct service *s, struct svc_bpf_insn *insns,
		     char *err, size_t errlen)
{
	static const uint32_t types[2] = { ATTACH_INET_INGRESS, ATTACH_INET_EGRESS };

	if (!s->execmore.ip_deny && !s->execmore.ip_allow)
		return 0;
	for (int i = 0; i < 2; i++) {
		int n = svc_bpf_ip_program(s, types[i] == ATTACH_INET_INGRESS, insns,
					   SVC_BPF_INSNS_MAX);
		if (n < 0 || load_and_attach(cg_fd, PROG_TYPE_CGROUP_SKB, types[i], insns, n) < 0) {
			snprintf(err, errlen, "IPAddressAllow=/IPAddressDeny=: %s; IP traffic is NOT "
				 "filtered", n < 0 ? "too many addresses" : strerror(errno));
			return -1;
		}
	}
	return 0;
}

int svc_bpf_attach(int cg_fd, const struct service *s, char *err, size_t errlen)
{
	struct svc_bpf_insn insns[SVC_BPF_INSNS_MAX]; /* 8 KiB of stack, only while attaching */
	int r = attach_devices(cg_fd, s, insns, err, errlen);

	if (attach_ip(cg_fd, s, insns, r < 0 ? err + strlen(err) : err,
		      r < 0 ? errlen - strlen(err) : errlen) < 0)
		r = -1;
	return r;
}
