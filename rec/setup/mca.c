/* mca.c - Open MPI's MCA parameters as it resolves them, read without
 * its tool interface: OMPI_MCA_ variables, then the user's and the
 * system's mca-params.conf; and its components in use, those whose
 * shared objects MPI_Init kept loaded. */
#define _GNU_SOURCE
#include <ctype.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup.h"

struct loaded {
	const char *name;	/* a shared object's file name */
	int found;
	char path[512];		/* where it is */
};

static int
seen(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded *l = arg;
	const char *b = strrchr(info->dlpi_name, '/');

	(void)size;
	b = b ? b + 1 : info->dlpi_name;
	if (strncmp(b, l->name, strlen(l->name)) != 0)
		return 0;
	l->found = 1;
	snprintf(l->path, sizeof l->path, "%s", info->dlpi_name);
	return 1;
}

/* Whether a shared object whose name starts with NAME is loaded; its
 * path in PATH, if given. */
int
rec_mca_loaded(const char *name, char *path, size_t size)
{
	struct loaded l = { name, 0, "" };

	dl_iterate_phdr(seen, &l);
	if (l.found && path)
		snprintf(path, size, "%s", l.path);
	return l.found;
}

/* An MCA size: digits and an optional k, m or g (times 1024). */
static long long
mcanum(const char *s)
{
	char *e;
	long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtoll(s, &e, 10);
	switch (tolower((unsigned char)*e)) {
	case 'k': v <<= 10; e++; break;
	case 'm': v <<= 20; e++; break;
	case 'g': v <<= 30; e++; break;
	}
	while (isspace((unsigned char)*e))
		e++;
	return *e ? -1 : v;
}

/* The value of parameter NAME in Open MPI's file PATH ("name = value"
 * lines, # comments); -1 if it has none. */
static long long
filenum(const char *path, const char *name)
{
	FILE *f = fopen(path, "re");
	char line[512];
	long long v = -1;
	size_t n = strlen(name);

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char *p = line;

		line[strcspn(line, "#\n")] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (strncmp(p, name, n) != 0)
			continue;
		p += n;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '=')
			v = mcanum(p + 1);
	}
	fclose(f);
	return v;
}

/* Parameter NAME (or its alias ALIAS) as Open MPI would set it; DEF if
 * nothing sets it. */
long long
rec_mca_param(const char *name, const char *alias, long long def)
{
	const char *names[2] = { name, alias }, *home = getenv("HOME");
	const char *sys = getenv("OPAL_SYSCONFDIR");
	char path[600], lib[512];
	long long v;
	int i;

	for (i = 0; i < 2; i++) {
		const char *e;

		snprintf(path, sizeof path, "OMPI_MCA_%s", names[i]);
		if ((e = getenv(path)) && (v = mcanum(e)) >= 0)
			return v;
	}
	for (i = 0; i < 2; i++)
		if (home) {
			snprintf(path, sizeof path, "%s/.openmpi/mca-params.conf",
			    home);
			if ((v = filenum(path, names[i])) >= 0)
				return v;
		}
	/* the system's file: OPAL_SYSCONFDIR, else Debian's /etc/openmpi,
	 * else beside the library's prefix */
	for (i = 0; i < 2; i++) {
		if (sys) {
			snprintf(path, sizeof path, "%s/openmpi-mca-params.conf",
			    sys);
			if ((v = filenum(path, names[i])) >= 0)
				return v;
		}
		if ((v = filenum("/etc/openmpi/openmpi-mca-params.conf",
		    names[i])) >= 0)
			return v;
		if (rec_mca_loaded("libmpi.so", lib, sizeof lib)) {
			char *s = strrchr(lib, '/');

			if (s) {
				*s = '\0';
				s = strrchr(lib, '/');
			}
			if (s) {
				*s = '\0';
				snprintf(path, sizeof path,
				    "%s/etc/openmpi-mca-params.conf", lib);
				if ((v = filenum(path, names[i])) >= 0)
					return v;
			}
		}
	}
	return def;
}

/* Whether the parameters can be resolved without MPI_T: Open MPI's
 * components are shared objects, and no other parameter files are
 * named. */
int
rec_mca_resolvable(void)
{
	const char *m = getenv("TR_RECORD_MPIT");

	return !(m && *m && strcmp(m, "0") != 0) &&
	    !getenv("OMPI_MCA_mca_base_param_files") &&
	    !getenv("OMPI_MCA_mca_base_param_file_prefix") &&
	    !getenv("OMPI_MCA_mca_base_envar_file_prefix") &&
	    rec_mca_loaded("mca_pml_", NULL, 0);
}
