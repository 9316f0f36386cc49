/* forking-daemon: a classic double-forking daemon, for Type=forking tests.
 *   forking-daemon -p PIDFILE [-l LOG] [-d MS] [-w PID] [-o UID] [-x CODE]
 * The started process forks; the child starts a session and forks the daemon; the
 * daemon writes PIDFILE (its own PID, or -w PID: a foreign one; -o: then owned by UID;
 * -d: only MS milliseconds after the parent has exited) and the parent exits 0 once the
 * file is there (at once with -d; -x: with CODE instead, writing nothing). The daemon
 * appends "hup" to LOG on SIGHUP and exits 0 on SIGTERM. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *log_path;
static volatile sig_atomic_t hups, done;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		hups++;
	else
		done = 1;
}

static void note(const char *what)
{
	FILE *f = log_path ? fopen(log_path, "a") : NULL;
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	const char *pidfile = NULL;
	long delay = 0, foreign = 0, owner = -1, code = -1;
	int ready[2], opt;
	char c;

	while ((opt = getopt(argc, argv, "p:l:d:w:o:x:")) != -1) {
		switch (opt) {
		case 'p': pidfile = optarg; break;
		case 'l': log_path = optarg; break;
		case 'd': delay = atol(optarg); break;
		case 'w': foreign = atol(optarg); break;
		case 'o': owner = atol(optarg); break;
		case 'x': code = atol(optarg); break;
		default: return 100;
		}
	}
	if (code >= 0)
		return (int)code;
	if (!pidfile || pipe(ready) < 0)
		return 100;
	if (fork() > 0) { /* the started process: wait for the daemon's word, then go */
		close(ready[1]);
		if (!delay && read(ready[0], &c, 1) != 1)
			return 1;
		return 0;
	}
	setsid();
	if (fork() > 0)
		_exit(0);
	signal(SIGHUP, on_signal);
	signal(SIGTERM, on_signal);
	if (delay)
		sleep_ms(delay);
	FILE *f = fopen(pidfile, "w");
	if (!f)
		return 1;
	fprintf(f, "%ld\n", foreign ? foreign : (long)getpid());
	fclose(f);
	if (owner >= 0 && chown(pidfile, (uid_t)owner, (gid_t)owner) < 0)
		return 1;
	note("started");
	if (write(ready[1], "r", 1) != 1 && !delay)
		return 1;
	close(ready[1]);
	for (int seen = 0; !done;) {
		pause();
		for (; seen < hups; seen++)
			note("hup");
	}
	note("stopped");
	return 0;
}
