/* tr-runs - the run store: add runs, select them by their labels,
 * enable or disable them, summarize exec times per condition. */
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libtr.h"

static const char *store;
static char *tmpdir;		/* a run being added, removed on failure */

static void
usage(void)
{
	fprintf(stderr,
	    "usage: tr-runs [-d store] add [-l label=value]... path ...\n"
	    "       tr-runs [-d store] list | paths [-a] [expr]\n"
	    "       tr-runs [-d store] summary [-a] [-g label,...] [expr]\n"
	    "       tr-runs [-d store] values [-a] label [expr]\n"
	    "       tr-runs [-d store] enable | disable id ...\n"
	    "       tr-runs [-d store] reindex\n");
	exit(TR_EXIT_USAGE);
}

static char *
cat3(const char *a, const char *b, const char *c)
{
	char *p = tr_malloc(strlen(a) + strlen(b) + strlen(c) + 1);

	strcpy(p, a);
	strcat(p, b);
	strcat(p, c);
	return p;
}

static void
rmtmp(void)
{
	DIR *d;
	struct dirent *de;

	if (!tmpdir || !(d = opendir(tmpdir)))
		return;
	while ((de = readdir(d)) != NULL) {
		char *f = cat3(tmpdir, "/", de->d_name);

		if (de->d_name[0] != '.')
			unlink(f);
		free(f);
	}
	closedir(d);
	rmdir(tmpdir);
}

static void
mkdir_p(const char *d)
{
	if (mkdir(d, 0777) < 0 && errno != EEXIST)
		tr_die(TR_EXIT_SYS, "%s:", d);
}

/* ---- add ---- */

static mode_t
umask_now(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

struct ext {
	int64_t lo, hi;		/* earliest start, latest end */
	double *rank;		/* prof: exclusive time per rank */
	size_t nrank;
	double total;		/* mean: the (total) key */
	int has, hastotal;
};

static void
span(struct ext *x, int64_t a, int64_t b)
{
	if (!x->has || a < x->lo)
		x->lo = a;
	if (!x->has || b > x->hi)
		x->hi = b;
	x->has = 1;
}

static void
extent(struct ext *x, struct tr_in *in, struct tr_rec *r)
{
	const char *t = r->decl->name;

	if (r->type == TR_EV) {
		span(x, r->u.ev.start, r->u.ev.end);
	} else if (strcmp(t, "job") == 0) {
		int64_t s = tr_get_i64(in, r, 4);

		span(x, s, s + tr_get_i64(in, r, 5));
	} else if (strcmp(t, "sys") == 0) {
		int64_t s = tr_get_i64(in, r, 2), e = tr_get_i64(in, r, 5);

		span(x, s, s + (e > 0 ? e : 0));
	} else if (strcmp(t, "prof") == 0) {
		int64_t rk = tr_get_i64(in, r, 1);

		if (rk >= (1 << 24))
			tr_in_die(in, "rank too large");
		if ((size_t)rk >= x->nrank) {
			size_t old = x->nrank;

			tr_grow(&x->rank, &x->nrank, (size_t)rk + 1,
			    sizeof *x->rank);
			memset(x->rank + old, 0, (x->nrank - old) *
			    sizeof *x->rank);
		}
		x->rank[rk] += tr_get_f64(in, r, 5);
	} else if (strcmp(t, "mean") == 0 && r->f[1].n == 7 &&
	    memcmp(r->f[1].p, TR_CMP_TOTAL, 7) == 0) {
		x->total = tr_get_f64(in, r, 3);
		x->hastotal = 1;
	}
}

static void
label(struct tr_run *r, const char *k, const char *v)
{
	char *s = tr_strdup(v), *p;

	for (p = s; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	tr_run_set(r, k, *s ? s : "-");
	free(s);
}

static void
meta_labels(struct tr_run *r, struct tr_in *in)
{
	const char *v, *k;
	char buf[32];
	size_t i, kn;
	int64_t np, rk;
	struct tr_map *hosts = tr_map_new();

	if ((v = tr_meta(in, "app")))
		label(r, "app", v);
	if ((v = tr_meta(in, "np")))
		label(r, "np", v);
	if (tr_meta_i64(in, "np", &np) == 0) {
		for (rk = 0; rk < np; rk++) {
			snprintf(buf, sizeof buf, "host.%lld", (long long)rk);
			if ((v = tr_meta(in, buf)))
				tr_map_get(hosts, v, strlen(v), 1);
		}
		if (tr_map_len(hosts) > 0) {
			snprintf(buf, sizeof buf, "%zu", tr_map_len(hosts));
			label(r, "nodes", buf);
		}
	}
	if ((v = tr_meta(in, "host.0")))
		label(r, "place", v);
	if ((v = tr_meta(in, "mpi")))
		label(r, "lib", v);
	if ((v = tr_meta(in, "N")))
		label(r, "input", v);
	if ((v = tr_meta(in, "date")))
		label(r, "date", v);
	for (i = 0; i < tr_meta_count(in); i++) {
		k = tr_meta_at(in, i, &v);
		kn = strlen(k);
		if (kn > 5 && memcmp(k, "cond.", 5) == 0 &&
		    tr_label_ok(k + 5, kn - 5)) {
			char *name = tr_strndup(k + 5, kn - 5);

			label(r, name, v);
			free(name);
		}
	}
	tr_map_free(hosts);
}

static int
bystr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of PATH: itself, or the regular files of a directory. */
static char **
files_of(const char *path, int *n)
{
	struct stat st;
	char **v = NULL;
	size_t cap = 0;
	DIR *d;
	struct dirent *de;

	*n = 0;
	if (stat(path, &st) < 0)
		tr_die(TR_EXIT_SYS, "%s:", path);
	if (!S_ISDIR(st.st_mode)) {
		v = tr_malloc(sizeof *v);
		v[0] = tr_strdup(path);
		*n = 1;
		return v;
	}
	if (!(d = opendir(path)))
		tr_die(TR_EXIT_SYS, "%s:", path);
	while ((de = readdir(d)) != NULL) {
		char *f;

		if (de->d_name[0] == '.')
			continue;
		f = cat3(path, "/", de->d_name);
		if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			tr_grow(&v, &cap, (size_t)*n + 1, sizeof *v);
			v[(*n)++] = f;
		} else {
			free(f);
		}
	}
	closedir(d);
	if (*n == 0)
		tr_die(TR_EXIT_DATA, "%s: no files in the directory", path);
	qsort(v, (size_t)*n, sizeof *v, bystr);
	return v;
}

static void
add(const char *path, int nl, char **labels)
{
	struct tr_run r = {0};
	struct ext x = {0};
	struct tr_in *in;
	struct tr_out *o;
	struct tr_rec rec;
	char *runs = cat3(store, "/runs", ""), *tmpl, *data, *dst, *id;
	char **files, buf[64];
	int i, n, t, fd, lk;

	mkdir_p(store);
	mkdir_p(runs);
	tmpl = cat3(runs, "/.tmp.XXXXXX", "");
	if (!mkdtemp(tmpl))
		tr_die(TR_EXIT_SYS, "%s:", tmpl);
	tmpdir = tmpl;
	chmod(tmpl, 0777 & ~umask_now());
	files = files_of(path, &n);
	data = cat3(tmpl, "/data.tr.gz", "");
	fd = open(data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		tr_die(TR_EXIT_SYS, "%s:", data);
	o = tr_out_open(fd, 1);
	tr_atdie = rmtmp;
	tr_run_set(&r, "id", "-");
	tr_run_set(&r, "enabled", "1");
	in = tr_open(n, files);
	while ((t = tr_next(in, &rec)) != TR_EOF) {
		if (t == TR_HDR) {
			if (tr_in_section(in) > 1)
				tr_in_die(in, "holds several runs: add them "
				    "one by one");
			tr_out_sync(o, in);
			meta_labels(&r, in);
		} else if (t == TR_REC) {
			tr_out_rec(o, &rec);
			extent(&x, in, &rec);
		}
	}
	if (tr_in_status(in)) {
		rmtmp();
		exit(tr_in_status(in));
	}
	tr_close(in);
	if (fsync(fd) < 0)
		tr_die(TR_EXIT_SYS, "%s:", data);
	tr_out_close(o);
	tr_atdie = rmtmp;
	if (!tr_run_get(&r, "date")) {
		time_t now = time(NULL);

		strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		tr_run_set(&r, "date", buf);
	}
	if (x.has || x.nrank || x.hastotal) {
		double tm = x.has ? (double)(x.hi - x.lo) : x.total;
		size_t k;

		for (k = 0; !x.has && !x.hastotal && k < x.nrank; k++)
			if (x.rank[k] > tm)
				tm = x.rank[k];
		snprintf(buf, sizeof buf, "%.0f", tm);
		tr_run_set(&r, "time", buf);
	}
	free(x.rank);
	for (i = 0; i < nl; i++) {
		char *eq = strchr(labels[i], '='), *k;

		k = tr_strndup(labels[i], (size_t)(eq - labels[i]));
		label(&r, k, eq + 1);
		free(k);
	}

	lk = tr_store_lock(store);
	id = tr_store_newid(store);
	tr_run_set(&r, "id", id);
	tr_run_save(&r, tmpl);
	dst = cat3(runs, "/", id);
	if (rename(tmpl, dst) < 0)
		tr_die(TR_EXIT_SYS, "%s:", dst);
	tmpdir = NULL;
	tr_atdie = NULL;
	tr_store_reindex(store);
	tr_store_unlock(lk);
	printf("%s\n", id);
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	tr_run_free(&r);
	free(id);
	free(dst);
	free(data);
	free(tmpl);
	free(runs);
}

/* ---- selection ---- */

static char **names;
static size_t nnames, namecap;

static int
lookup(void *ctx, const char *name, size_t n)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < nnames; i++)
		if (strlen(names[i]) == n && memcmp(names[i], name, n) == 0)
			return (int)i;
	tr_grow(&names, &namecap, nnames + 1, sizeof *names);
	names[nnames] = tr_strndup(name, n);
	return (int)nnames++;
}

static struct tr_expr *
compile(const char *src)
{
	struct tr_expr *e;
	char err[256];
	int col;

	if (!src)
		return NULL;
	e = tr_expr_parse(src, lookup, NULL, err, sizeof err, &col);
	if (!e) {
		tr_expr_perror(src, err, col);
		exit(TR_EXIT_USAGE);
	}
	return e;
}

static int
selected(const struct tr_run *r, const struct tr_expr *e, int all)
{
	struct tr_val *slots;
	size_t i;
	int ok;
	const char *en = tr_run_get(r, "enabled");

	if (!all && en && strcmp(en, "1") != 0)
		return 0;
	if (!e)
		return 1;
	slots = tr_calloc(nnames ? nnames : 1, sizeof *slots);
	for (i = 0; i < nnames; i++) {
		const char *v = tr_run_get(r, names[i]);
		double d;

		slots[i].s = v ? v : "";
		slots[i].n = strlen(slots[i].s);
		slots[i].isstr = !v || tr_parse_f64(v, strlen(v), &d) < 0;
		slots[i].num = slots[i].isstr ? 0 : d;
	}
	ok = tr_expr_true(e, slots);
	free(slots);
	return ok;
}

static void
putline(const struct tr_run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		printf("%s%s=%s", i ? "\t" : "", r->key[i], r->val[i]);
	printf("\n");
}

struct group {
	char *key;
	struct tr_stat st;
};

static void
summary(struct tr_run *v, size_t n, const struct tr_expr *e, int all,
    const char *by)
{
	struct tr_map *m = tr_map_new();
	struct group *g = NULL;
	size_t i, cap = 0, ng = 0;
	char *list = tr_strdup(by), *tok, *save, *key, buf[32];
	struct tr_out *o;

	for (i = 0; i < n; i++) {
		const char *t = tr_run_get(&v[i], "time");
		double d;
		size_t kl = 0;
		long gi;

		if (!selected(&v[i], e, all) || !t ||
		    tr_parse_f64(t, strlen(t), &d) < 0)
			continue;
		key = NULL;
		strcpy(list, by);
		for (tok = strtok_r(list, ",", &save); tok;
		    tok = strtok_r(NULL, ",", &save)) {
			const char *lv = tr_run_get(&v[i], tok);
			size_t add = strlen(tok) + (lv ? strlen(lv) : 1) + 2;

			key = tr_realloc(key, kl + add + 1);
			kl += (size_t)snprintf(key + kl, add + 1, "%s%s=%s",
			    kl ? "," : "", tok, lv ? lv : "-");
		}
		if (!key)
			key = tr_strdup("*"), kl = 1;
		gi = tr_map_get(m, key, kl, 1);
		if ((size_t)gi >= ng) {
			tr_grow(&g, &cap, (size_t)gi + 1, sizeof *g);
			memset(&g[gi], 0, sizeof *g);
			g[gi].key = key;
			ng = (size_t)gi + 1;
		} else {
			free(key);
		}
		tr_stat_add(&g[gi].st, d);
	}
	o = tr_out_open(1, 0);
	tr_out_begin(o);
	tr_out_printf(o, "#meta runs.group=%s\n#meta runs.value=time\n", by);
	tr_out_fields(o, TR_MEAN);
	for (i = 0; i < ng; i++) {
		tr_out_printf(o, "mean\t%s\t%.0f\t", g[i].key, g[i].st.n);
		tr_out_str(o, tr_f64str(buf, g[i].st.mean));
		tr_out_c(o, '\t');
		tr_out_str(o, tr_f64str(buf, tr_stat_sd(&g[i].st)));
		tr_out_c(o, '\t');
		tr_out_str(o, tr_f64str(buf, g[i].st.min));
		tr_out_c(o, '\t');
		tr_out_str(o, tr_f64str(buf, g[i].st.max));
		tr_out_c(o, '\n');
		free(g[i].key);
	}
	tr_out_close(o);
	free(g);
	free(list);
	tr_map_free(m);
}

static void
setenabled(int argc, char **argv, const char *val)
{
	struct tr_run r;
	int i, lk = tr_store_lock(store), bad = 0;

	for (i = 0; i < argc; i++) {
		char *d;

		if (strchr(argv[i], '/') || argv[i][0] == '.' ||
		    tr_run_load(&r, store, argv[i]) < 0) {
			tr_warn("%s: no such run", argv[i]);
			bad = 1;
			continue;
		}
		tr_run_set(&r, "enabled", val);
		d = cat3(store, "/runs/", argv[i]);
		tr_run_save(&r, d);
		free(d);
		tr_run_free(&r);
	}
	tr_store_reindex(store);
	tr_store_unlock(lk);
	if (bad)
		exit(TR_EXIT_DATA);
}

int
main(int argc, char **argv)
{
	struct tr_expr *e = NULL;
	struct tr_run *v;
	const char *cmd, *by = "app,np,nodes,place,lib,fs,input";
	const char *lab = NULL;
	char **labels = NULL;
	size_t n, i, j, nv = 0, lcap = 0;
	int c, all = 0, nl = 0;

	tr_init(argv[0]);
	store = getenv("TR_RUNS");
	if (!store || !*store)
		store = "runs";
	while ((c = getopt(argc, argv, "+d:")) != -1) {
		switch (c) {
		case 'd': store = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	cmd = argv[0];
	optind = 1;
	while ((c = getopt(argc, argv, "+ag:l:")) != -1) {
		switch (c) {
		case 'a': all = 1; break;
		case 'g': by = optarg; break;
		case 'l': {
			char *eq = strchr(optarg, '=');

			if (!eq || !tr_label_ok(optarg, (size_t)(eq - optarg)) ||
			    strcmp(cmd, "add") != 0)
				usage();
			tr_grow(&labels, &lcap, (size_t)nl + 1, sizeof *labels);
			labels[nl++] = optarg;
			break;
		}
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (strcmp(cmd, "add") == 0) {
		if (argc < 1)
			usage();
		for (c = 0; c < argc; c++)
			add(argv[c], nl, labels);
		free(labels);
		return 0;
	}
	if (strcmp(cmd, "enable") == 0 || strcmp(cmd, "disable") == 0) {
		if (argc < 1)
			usage();
		setenabled(argc, argv, cmd[0] == 'e' ? "1" : "0");
		return 0;
	}
	if (strcmp(cmd, "reindex") == 0) {
		int lk;

		if (argc != 0)
			usage();
		lk = tr_store_lock(store);
		tr_store_reindex(store);
		tr_store_unlock(lk);
		return 0;
	}
	if (strcmp(cmd, "values") == 0) {
		if (argc < 1)
			usage();
		lab = argv[0];
		argc--;
		argv++;
	} else if (strcmp(cmd, "list") != 0 && strcmp(cmd, "paths") != 0 &&
	    strcmp(cmd, "summary") != 0) {
		usage();
	}
	if (argc > 1)
		usage();
	e = compile(argc ? argv[0] : NULL);
	v = tr_store_read(store, &n);
	if (cmd[0] == 's') {
		summary(v, n, e, all, by);
	} else if (lab) {
		char **vals = tr_calloc(n ? n : 1, sizeof *vals);

		for (i = 0; i < n; i++) {
			const char *x = tr_run_get(&v[i], lab);

			if (x && selected(&v[i], e, all))
				vals[nv++] = (char *)x;
		}
		qsort(vals, nv, sizeof *vals, bystr);
		for (i = 0; i < nv; i++)
			if (i == 0 || strcmp(vals[i], vals[i - 1]) != 0)
				printf("%s\n", vals[i]);
		free(vals);
	} else {
		for (i = 0; i < n; i++) {
			if (!selected(&v[i], e, all))
				continue;
			if (cmd[0] == 'l')
				putline(&v[i]);
			else
				printf("%s/runs/%s/data.tr.gz\n", store,
				    tr_run_get(&v[i], "id"));
		}
	}
	for (i = 0; i < n; i++)
		tr_run_free(&v[i]);
	free(v);
	for (j = 0; j < nnames; j++)
		free(names[j]);
	free(names);
	tr_expr_free(e);
	if (fflush(stdout) == EOF || ferror(stdout))
		tr_die(TR_EXIT_SYS, "stdout:");
	return 0;
}
