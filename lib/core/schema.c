/* schema.c - the record types this version of the format defines. */
#include <string.h>

#include "core.h"

/* Kinds: i integer, n integer >= 0, f float, s string. */
static const struct tr_schema schemas[] = {
	{TR_EV, "ev",
	    "rank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot",
	    "nnsnnisiniiii"},
	{TR_REG, "reg", "rank\tseq\tkind\tname\ttime\tcpu\twtime", "nnssnin"},
	{TR_COMM, "comm", "rank\tid\tsize\tmembers", "nnns"},
	{TR_CART, "cart", "rank\tid\tdims\tperiods", "nnss"},
	{TR_FAIL, "fail",
	    "rank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm"
	    "\treq\troot\terr", "nnsnnisiniiiis"},
	/* Types added by later tools go here. */
	{TR_SIMRUN, "simrun", "np\truntime\tevents\tcompute\tcomm\twait",
	    "nnnnnn"},
	{TR_SIMRANK, "simrank", "rank\tfinish\tcompute\tcomm\twait\tevents",
	    "nnnnnn"},
	{TR_SIMLINK, "simlink", "link\tname\tbytes\tbusy\tutil", "nsnnf"},
	{TR_PARAM, "param", "op\tcomm\tsize\talpha\tbeta\tlo\thi\tpoints\terr",
	    "ssnffnnnf"},
	{TR_PHASE, "phase",
	    "what\tname\tnp\tN\tcompute\tcomm\ttotal\ttimers\tbarriers",
	    "ssnfiiiff"},
	{TR_PHASECMP, "phasecmp", "name\tnp\tN\tpart\tmeas\tpred\terr",
	    "snfsiif"},
	{TR_OVERHEAD, "overhead",
	    "config\tnp\tN\tmeasured\tcorrected\tratio\tcratio", "snfiiff"},
	{TR_MODEL, "model",
	    "type\tkey\tquantity\tfamily\texpr\trss\tadjr2\tsmape\tcvsmape\tpoints\treps",
	    "sssssffffnn"},
	{TR_ACC, "acc", "type\tkey\tquantity\tpred\tmeas\tacc", "sssfff"},
	{TR_HDIST, "hdist", "field\tkey\temd\tks", "ssff"},
	{TR_ACCSUM, "accsum",
	    "compared\tmissing\tmedian\tmin\tin5\tin10\tin25\tbelow",
	    "nnfffffn"},
	{TR_ACCWORST, "accworst", "type\tkey\tquantity\tpred\tmeas\tacc",
	    "sssfff"},
	/* tr-delta, tr-hist, tr-profile, tr-stat, tr-waits */
	{TR_DELTA, "delta", "rank\tseq\tkey\tstart\twall\tcpu", "nnsnni"},
	{TR_DSUM, "dsum", "rank\tkey\tn\twall\tcpu", "nsnni"},
	{TR_DMAX, "dmax", "key\tranks\tn\twall\tcpu\tmean\trank", "snnnifn"},
	{TR_HIST, "hist",
	    "field\tkey\tn\tmin\tmean\tmax\tsd\tsum\tsumsq\tscale\twidth\tbins",
	    "ssnffffffsfn"},
	{TR_BIN, "bin", "field\tkey\tlo\thi\tcount\tmean\tsum", "ssffnff"},
	{TR_PROF, "prof", "rank\tname\tcalls\tsubrs\texcl\tincl\tbytes",
	    "nsnnnnn"},
	{TR_PROFAGG, "profagg",
	    "stat\tname\tranks\tcalls\tsubrs\texcl\tincl\tbytes", "ssnfffff"},
	{TR_OPSTAT, "opstat", "op\tcalls\tbytes\ttime", "snnn"},
	{TR_CMAT, "cmat", "src\tdst\tmsgs\tbytes", "nnnn"},
	{TR_MSIZE, "msize", "lo\thi\tmsgs\tbytes", "nnnn"},
	{TR_MSITE, "msite", "op\tsite\tcalls\tbytes", "ssnn"},
	{TR_IMBAL, "imbal", "ranks\tmin\tmean\tmax\tratio\trank", "nnfnfn"},
	{TR_WAIT, "wait", "kind\trank\tsite\tn\ttime", "sisnn"},
	{TR_BLAME, "blame", "kind\trank\tn\ttime", "snnn"},
	/* tr-jobsh, tr-from-strace, tr-mean, tr-diff */
	{TR_JOB, "job",
	    "host\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss\tminflt"
	    "\tmajflt\tstatus\tcmd\tparent",
	    "snsnnnnnnnisi"},
	{TR_SYS, "sys", "pid\ttime\tcall\tpath\telapsed\tresult\terr",
	    "inssiis"},
	{TR_MEAN, "mean", "key\tn\tmean\tsd\tmin\tmax", "snffff"},
	{TR_DIFF, "diff",
	    "key\ta\tb\tdelta\tratio\tm\tp\tna\tnb\tonly\tpadj",
	    "sffffffnnsf"},
	/* tr-from-extrap */
	{TR_METRIC, "metric", "region\tmetric\tvalue", "ssf"},
	{TR_PEER, "peer",
	    "op\tsite\tclass\tfn\targ\torder\ttrips\tscales\tnps\tcycles"
	    "\tcomm\tcsizes\tsource\ttag",
	    "sssssssnssssss"},
	{TR_OTHER, NULL, NULL, NULL}
};

/* Columns of earlier revisions, which files written then still have:
 * a prefix of the type's columns, as columns are only ever appended. */
static const struct {
	enum tr_type type;
	const char *fields;
} older[] = {
	/* before the jobs of a recursive make named their parent */
	{TR_JOB, "host\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss"
	    "\tminflt\tmajflt\tstatus\tcmd"},
	/* before a diff carried the p its key was judged by */
	{TR_DIFF, "key\ta\tb\tdelta\tratio\tm\tp\tna\tnb\tonly"},
	/* before the pattern model named the communicator of a site */
	{TR_PEER, "op\tsite\tclass\tfn\targ\torder\ttrips\tscales\tnps"
	    "\tcycles"},
	/* before it named a Sendrecv's sources and the tags */
	{TR_PEER, "op\tsite\tclass\tfn\targ\torder\ttrips\tscales\tnps"
	    "\tcycles\tcomm\tcsizes"},
	{TR_OTHER, NULL}
};

const char *
tr_schema_older(const struct tr_schema *s, int k)
{
	size_t i;

	for (i = 0; older[i].fields; i++)
		if (older[i].type == s->type && k-- == 0)
			return older[i].fields;
	return NULL;
}

const struct tr_schema *
tr_schema_find(const char *name, size_t n)
{
	const struct tr_schema *s;

	for (s = schemas; s->name; s++)
		if (strlen(s->name) == n && memcmp(s->name, name, n) == 0)
			return s;
	return NULL;
}

const struct tr_schema *
tr_schema_get(enum tr_type t)
{
	const struct tr_schema *s;

	for (s = schemas; s->name; s++)
		if (s->type == t)
			return s;
	return NULL;
}

int
tr_schema_col(const struct tr_schema *s, const char *name, size_t n)
{
	const char *f = s->fields;
	size_t k;
	int c;

	for (c = 1; *f; c++) {
		k = strcspn(f, "\t");
		if (k == n && memcmp(f, name, n) == 0)
			return c;
		f += k + (f[k] != '\0');
	}
	return -1;
}
