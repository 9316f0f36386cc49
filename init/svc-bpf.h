#ifndef EMBER_INIT_SVC_BPF_H
#define EMBER_INIT_SVC_BPF_H
/* DeviceAllow=/DevicePolicy= and IPAddressAllow=/IPAddressDeny= as cgroup2 BPF programs,
 * assembled here by hand (no libbpf: PID 1 links only libc), loaded with bpf(2) and
 * attached to the service's cgroup by PID 1, which owns it (docs/design.md, "BPF
 * filters"). A device program (BPF_PROG_TYPE_CGROUP_DEVICE) decides every open and
 * mknod of a device node; an IP program (BPF_PROG_TYPE_CGROUP_SKB) every packet in and
 * out. Meanings as in systemd.resource-control(5). */
#include <stddef.h>
#include <stdint.h>

#include "service.h"

/* One instruction, the kernel's struct bpf_insn layout. */
struct svc_bpf_insn {
	uint8_t code;
	uint8_t regs; /* dst in the low nibble, src in the high one */
	int16_t off;
	int32_t imm;
};

#define SVC_BPF_INSNS_MAX 1024
#define SVC_BPF_DEVICE_RULES_MAX 96

/* One device rule: type 'c' or 'b', major/minor (-1: any), access bits (1 mknod, 2 read,
 * 4 write: the kernel's BPF_DEVCG_ACC_*). */
struct svc_bpf_device_rule {
	char type;
	int32_t major, minor;
	uint8_t access;
};

/* Rules for the service (DevicePolicy= with its standard devices, then every DeviceAllow=
 * line). stat_dev and proc_devices are the host's (tests pass their own): stat_dev
 * gives the type and number of a /dev path (-1 when missing), proc_devices the text of
 * /proc/devices. Returns the count, -1 for "no restriction" (policy auto, no list). */
typedef int svc_bpf_stat_fn(const char *path, char *type, uint32_t *major, uint32_t *minor);
int svc_bpf_device_rules(const struct service *s, svc_bpf_stat_fn *stat_dev,
			 const char *proc_devices, struct svc_bpf_device_rule *out, size_t cap);

/* The programs. Return the instruction count, or -1 when it does not fit. */
int svc_bpf_device_program(const struct svc_bpf_device_rule *rules, size_t n,
			   struct svc_bpf_insn *out, size_t cap);
/* ingress: match the source address, else the destination. */
int svc_bpf_ip_program(const struct service *s, int ingress, struct svc_bpf_insn *out,
		       size_t cap);

/* Load and attach everything s asks for to the cgroup cg_fd. 0, or -1 with a message
 * (the service then runs without the filter, as on systemd when BPF is missing). */
int svc_bpf_attach(int cg_fd, const struct service *s, char *err, size_t errlen);
#endif
