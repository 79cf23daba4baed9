/* meta.c - the global metadata of a run's header: the program, its
 * command, the date, the clock and its costs, the MPI library. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libtr.h"
#include "setup.h"


/* The global metadata, built on rank 0 and broadcast, so that the
 * per-rank files of a run agree on every shared key. */
enum { GMAX = 4096 };

char *
rec_meta_global(MPI_Comm c, int64_t timer, int64_t barrier)
{
	char cmd[2048] = "", app[256] = "-", mpi[MPI_MAX_LIBRARY_VERSION_STRING];
	char date[64], eager[128], cpuw[48], size[80], *g = NULL;
	const char *N;
	int len = 0, n, fd;

	if (rec.rank == 0) {
		time_t now = time(NULL);
		struct tm tm;
		ssize_t k;
		char *p;

		fd = open("/proc/self/cmdline", O_RDONLY);
		k = fd >= 0 ? read(fd, cmd, sizeof cmd - 1) : 0;
		if (fd >= 0)
			close(fd);
		if (k < 0)
			k = 0;
		cmd[k] = '\0';
		p = strrchr(cmd, '/');
		snprintf(app, sizeof app, "%s", p && p[1] ? p + 1 : cmd[0] ? cmd : "-");
		for (ssize_t i = 0; i + 1 < k; i++)
			if (cmd[i] == '\0')
				cmd[i] = ' ';
		if (!cmd[0])
			strcpy(cmd, "-");
		rec_clean(cmd);
		rec_clean(app);
		n = 0;
		mpi[0] = '\0';
		PMPI_Get_library_version(mpi, &n);
		mpi[strcspn(mpi, ",\n")] = '\0';
		rec_clean(mpi);
		gmtime_r(&now, &tm);
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
		rec_eager_meta(eager, sizeof eager);
		cpuw[0] = '\0';
		if (rec.cpu)
			snprintf(cpuw, sizeof cpuw, "#meta cpu.window=%lld\n",
			    (long long)rec.cpuwin);
		/* the problem size tr-record -N gives, for tr-fit's
		 * models in (np, N) */
		size[0] = '\0';
		if ((N = rec_env_size()))
			snprintf(size, sizeof size, "#meta N=%s\n", N);
		g = malloc(GMAX);
		if (g) {
			snprintf(g, GMAX, "#meta np=%d\n%s#meta app=%s\n"
			    "#meta cmd=%s\n#meta date=%s\n"
			    "#meta clock=%s+pingpong\n#meta timer.cost=%lld\n"
			    "%s#meta barrier.cost=%lld\n#meta mpi=%s\n%s"
			    "#meta tool=tr-record %s\n", rec.np, size, app, cmd, date,
			    rec.clk == CLOCK_REALTIME ? "realtime" : "monotonic",
			    (long long)timer, cpuw, (long long)barrier,
			    mpi[0] ? mpi : "-", eager, TR_VERSION);
			len = strlen(g) + 1;
		}
	}
	PMPI_Bcast(&len, 1, MPI_INT, 0, c);
	if (rec.rank != 0)
		g = malloc(GMAX);
	if (len > 0 && g)
		PMPI_Bcast(g, len, MPI_CHAR, 0, c);
	else if (len > 0) {
		char tmp[GMAX];

		PMPI_Bcast(tmp, len, MPI_CHAR, 0, c);
	}
	return g;
}
