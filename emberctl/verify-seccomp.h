#ifndef EMBER_VERIFY_SECCOMP_H
#define EMBER_VERIFY_SECCOMP_H
/* emberctl verify: the names in the seccomp keys (verify-seccomp.c). */
#include "init/service.h"

/* Reports every name ember-sandbox would refuse, through diag. */
void verify_seccomp(const struct service *svc, const struct service_diag *diag);
#endif
