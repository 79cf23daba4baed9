/* tr-jobsh - a SHELL for make that appends one job record per recipe to
 * the file named by $TR_JOBS: make SHELL=tr-jobsh. */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libtr.h"

#define SH "/bin/sh"

static int64_t
now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	/* The options are /bin/sh's, passed on; -h or --help alone,
	 * which no make passes, is the one answered here. */
	static const struct tr_opts opts = {
		"tr-jobsh [sh-option ...] -c command",
		"-c command\tthe recipe, run by /bin/sh with the other "
		"options; a job record goes to $TR_JOBS\n",
		NULL
	};
	const char *file = getenv("TR_JOBS");
	struct tr_jobrec j;
	char *run;
	struct sigaction ign, oint, oquit;
	struct rusage ru;
	int64_t t0;
	int st;
	char self[24];
	pid_t pid;

	tr_init("tr-jobsh");
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		tr_help(&opts);
	argv[0] = SH;
	if (!file || !*file) {
		execv(SH, argv);
		tr_die(TR_EXIT_SYS, "%s:", SH);
	}
	memset(&j, 0, sizeof j);
	j.cmd = argc > 1 ? argv[argc - 1] : "";
	j.run = run = tr_jobrec_run();
	j.parent = tr_jobrec_parent();
	j.target = tr_jobrec_shellcall() ? "$(shell)" :
	    getenv("TR_JOB_TARGET");
	if (setenv("TR_JOB_RUN", run, 1) < 0)
		tr_die(TR_EXIT_SYS, "setenv:");
	/* Like system(3): the shell gets the terminal's signals, we wait. */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	j.start = now(CLOCK_REALTIME);
	t0 = now(CLOCK_MONOTONIC);
	pid = fork();
	if (pid < 0)
		tr_die(TR_EXIT_SYS, "fork:");
	if (pid == 0) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		/* Jobs of a sub-make the recipe runs are nested in it. */
		*tr_fmt_i64(self, getpid()) = '\0';
		if (setenv("TR_JOB_PARENT", self, 1) < 0)
			tr_warn("setenv:");
		execv(SH, argv);
		tr_warn("%s:", SH);
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			tr_die(TR_EXIT_SYS, "wait4:");
	j.elapsed = now(CLOCK_MONOTONIC) - t0;
	j.pid = pid;
	j.ru = &ru;
	j.status = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
	tr_jobrec_append(file, &j);
	free(run);
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
