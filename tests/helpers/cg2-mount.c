/* cg2-mount DIR: mount cgroup2 at DIR through ember's cgroup library (what ember-init
 * does for /sys/fs/cgroup) and print the outcome, for tests/integration. */
#include <stdio.h>

#include "cgroup2.h"

int main(int argc, char **argv)
{
	struct cg2_mount_result res;

	if (argc != 2) {
		fprintf(stderr, "usage: cg2-mount DIR\n");
		return 100;
	}
	if (cg2_mount(argv[1], CG2_WANTED, &res) < 0) {
		perror(argv[1]);
		return 111;
	}
	printf("probed-missing=%s%s%s\n",
	       res.missing & CG2_NSDELEGATE ? "nsdelegate " : "",
	       res.missing & CG2_MEMORY_RECURSIVEPROT ? "memory_recursiveprot " : "",
	       res.missing & CG2_MEMORY_HUGETLB_ACCOUNTING ? "memory_hugetlb_accounting" : "");
	printf("mounted=%d remounted=%d\noptions=%s\n", res.mounted, res.remounted, res.options);
	return 0;
}
