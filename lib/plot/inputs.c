/* inputs.c - the inputs of a report: files, and the streams found under
 * directories, a run's rank files making one input. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plot.h"

/* Names in natural order: np4 before np16, rank.2 before rank.10. */
static int
natcmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	while (*x && *y) {
		if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
			const char *p = x, *q = y;

			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			for (p = x; *p >= '0' && *p <= '9'; p++)
				;
			for (q = y; *q >= '0' && *q <= '9'; q++)
				;
			if (p - x != q - y)
				return p - x < q - y ? -1 : 1;
			for (; x < p; x++, y++)
				if (*x != *y)
					return *x < *y ? -1 : 1;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
		x++;
		y++;
	}
	return *x ? 1 : *y ? -1 : 0;
}

/* A stream of the format, plain or gzip: the rest of a directory (a
 * Makefile, logs) is left out. */
static int
is_stream(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char b[4] = {0};
	size_t n;

	if (!f)
		return 0;
	n = fread(b, 1, 4, f);
	fclose(f);
	return (n >= 2 && b[0] == 0x1f && b[1] == 0x8b) ||
	    (n == 4 && !memcmp(b, "#tr ", 4));
}

static void
add_file(struct tr_inputs *s, const char *path)
{
	struct tr_input *in;

	tr_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	in = &s->v[s->n++];
	in->label = tr_strdup(path);
	in->files = tr_malloc(sizeof *in->files);
	in->files[0] = tr_strdup(path);
	in->n = 1;
}

/* rank.N.tr, rank.N.tr.gz: tr-record's per-rank files. */
static int
is_rankfile(const char *path)
{
	const char *b = strrchr(path, '/'), *p;

	b = b ? b + 1 : path;
	if (strncmp(b, "rank.", 5))
		return 0;
	for (p = b + 5; *p >= '0' && *p <= '9'; p++)
		;
	return p > b + 5 && (!strcmp(p, ".tr") || !strcmp(p, ".tr.gz"));
}

static void
add_rankfile(struct tr_inputs *s, const char *dir, size_t dirn,
    const char *path, size_t *group)
{
	struct tr_input *in;

	if (!*group) {
		add_file(s, path);
		free(s->v[s->n - 1].label);
		s->v[s->n - 1].label = tr_strndup(dir, dirn);
		*group = s->n;
		return;
	}
	in = &s->v[*group - 1];
	in->files = tr_realloc(in->files, (size_t)(in->n + 1) *
	    sizeof *in->files);
	in->files[in->n++] = tr_strdup(path);
}

static int
collect(struct tr_inputs *s, const char *path, int depth)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i, plen;
	size_t group = 0;	/* 1 + the input of the rank files */
	int status = 0;

	if (!strcmp(path, "-")) {
		add_file(s, path);
		return 0;
	}
	if (stat(path, &st) < 0) {
		tr_warn("%s:", path);
		return TR_EXIT_SYS;
	}
	if (!S_ISDIR(st.st_mode)) {
		add_file(s, path);
		return 0;
	}
	if (depth > 4 || !(d = opendir(path))) {
		if (depth <= 4)
			tr_warn("%s:", path);
		return depth > 4 ? 0 : TR_EXIT_SYS;
	}
	/* out/, as a shell completes it: its files are out/x, not out//x,
	 * in the report's names and labels */
	plen = strlen(path);
	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		tr_grow(&names, &cap, n + 1, sizeof *names);
		names[n] = tr_malloc(plen + strlen(e->d_name) + 2);
		sprintf(names[n++], "%.*s%s%s", (int)plen, path,
		    path[plen - 1] == '/' ? "" : "/", e->d_name);
	}
	closedir(d);
	tr_sort(names, n, sizeof *names, natcmp);
	for (i = 0; i < n; i++) {
		if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			int st = collect(s, names[i], depth + 1);

			if (st)
				status = st;
		} else if (is_stream(names[i])) {
			/* A run's rank files make one input, one timeline. */
			if (is_rankfile(names[i]))
				add_rankfile(s, path, plen, names[i], &group);
			else
				add_file(s, names[i]);
		}
		free(names[i]);
	}
	free(names);
	return status;
}

int
tr_inputs_add(struct tr_inputs *s, const char *path)
{
	return collect(s, path, 0);
}

void
tr_inputs_free(struct tr_inputs *s)
{
	size_t i;
	int j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->v[i].n; j++)
			free(s->v[i].files[j]);
		free(s->v[i].files);
		free(s->v[i].label);
	}
	free(s->v);
	memset(s, 0, sizeof *s);
}
