#include "measure.h"
#include "rlimits.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec-context.h"
#include "log.h"

#define MEASURE_TIMEOUT_MS 5000
#define TPM_DEVICE "/dev/tpmrm0" /* boot-measure's default TCTI */
#define MEASURE_STEP_MS 5
#define MEASURE_NO_TPM 2 /* boot-measure's "no TPM: nothing measured" */

static bool enabled = true;
static const char *program;

void measure_enable(bool on, const char *path)
{
	enabled = on;
	program = path;
}

static int wait_for(pid_t pid)
{
	struct timespec step = { 0, MEASURE_STEP_MS * 1000000L };
	int status;

	for (int waited = 0; waited < MEASURE_TIMEOUT_MS; waited += MEASURE_STEP_MS) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return exec_status_code(status);
		if (r < 0 && errno != EINTR)
			return -1;
		nanosleep(&step, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -2;
}

void measure_phase(const char *word)
{
	char *argv[] = { "boot-measure", "phase", (char *)word, NULL };
	char *envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL };
	pid_t pid;
	int rc;

	if (!enabled || !program || access(program, X_OK) < 0)
		return;
	/* Without the device boot-measure would only say so; spare the fork and exec. */
	if (access(TPM_DEVICE, F_OK) < 0) {
		log_info("no TPM 2.0 at %s: nothing measured", TPM_DEVICE);
		enabled = false;
		return;
	}
	pid = fork();
	if (pid < 0) {
		log_warn("measure %s: fork: %m", word);
		return;
	}
	if (pid == 0) {
		sigset_t none;
		rlimits_for_child();
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execve(program, argv, envp);
		_exit(127);
	}
	rc = wait_for(pid);
	if (rc == 0)
		log_info("measured phase '%s' into PCR 11", word);
	else if (rc == MEASURE_NO_TPM)
		enabled = false; /* said once by boot-measure; no TPM will appear later */
	else if (rc == -2)
		log_warn("measure %s: boot-measure took over %d ms, killed", word, MEASURE_TIMEOUT_MS);
	else
		log_warn("measure %s: boot-measure exited with status %d", word, rc);
}
