/* tr-extrap - evaluate fitted models at a target scale: predicted delta
 * statistics, histograms, counts and bytes, or (-T) a whole trace. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static double tnp = -1, tN = -1, tol = 10;
static uint64_t seed = 1;
static int tflag, qflag, wflag;
static struct tr_range *shard;
static size_t nshard;
/* File scope: still reachable when a bad record ends the tool. */
static struct tr_xp *xp;
static struct tr_syn *syn;
static struct tr_vf *vf;

static const struct option longopts[] = {
	{"trace", no_argument, NULL, 'T'},
	{NULL, 0, NULL, 0}
};

static const struct tr_opts opts = {
	"tr-extrap [-QTW] [-E pct] [-G ranks] [-n np] [-N size] [-R seed] "
	"[np=NP] [N=SIZE] [file ...]",
	"-E pct\tthe tolerance of -T's check, percent beyond the models' own "
	"error (default 10)\n"
	"-G ranks\twith -T, only the records of these target ranks, a shard\n"
	"-N size\tthe target problem size (or N=size)\n"
	"-n np\tthe target process count (or np=np)\n"
	"-Q\tno progress of -T on stderr when it is a terminal\n"
	"-R seed\tthe seed of the sampled values of -T (default 1)\n"
	"-T, --trace\twrite a whole trace of the target run, grown from a "
	"recorded one\n"
	"-W\tdisagreements of -T's trace with the models are warnings\n",
	longopts
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* Models and records are passed through; the predictions follow. */
static int
predict(int nf, char **files, struct tr_out *o)
{
	struct tr_in *in = tr_open(nf, files);
	struct tr_rec r;
	int c, pend = 0, status;

	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_HDR) {
			pend = 1;
		} else if (c == TR_REC && r.type == TR_MODEL) {
			tr_xp_add(xp, in, &r);
		} else if (c == TR_REC) {
			if (pend)
				tr_out_sync(o, in);
			pend = 0;
			tr_out_rec(o, &r);
		}
	}
	status = tr_in_status(in);
	/* An input that could not be opened was said already (status 4). */
	if (tr_xp_count(xp) == 0 && !status)
		tr_in_die_all(in, "no model records");
	if (tr_xp_count(xp) > 0)
		tr_xp_write(xp, o);
	tr_close(in);
	return status;
}

/* -T: the template is read twice, to learn it and to follow it. */
static int
synth(int nf, char **files, struct tr_out *o)
{
	struct tr_in *in;
	struct tr_rec r;
	int c, status;
	long nbad;

	if (nf == 0)
		tr_die(TR_EXIT_USAGE, "-T needs the template trace as files");
	syn = tr_syn_new(xp, (long)tnp, tN, seed);
	vf = tr_vf_new(xp, tnp, tol / 100);
	tr_syn_verify(syn, vf);
	tr_syn_files(syn, nf, files);
	in = tr_open(nf, files);
	/* tr_syn_begin wants ev records of every rank, subset or not. */
	tr_in_check(in, TR_CHECK_ENDED);
	while ((c = tr_next(in, &r)) != TR_EOF)
		if (c == TR_REC)
			tr_syn_add(syn, in, &r);
	status = tr_in_status(in);
	tr_close(in);
	/* A template file that could not be read was said already: the
	 * template lacks its ranks, and their absence is no other error. */
	if (status)
		return status;
	tr_syn_begin(syn, o);
	in = tr_open(nf, files);
	/* the pass that writes the trace, as long as the trace */
	if (!qflag)
		tr_in_progress(in);
	while ((c = tr_next(in, &r)) != TR_EOF)
		if (c == TR_REC)
			tr_syn_ev(syn, in, &r, o);
	if (tr_in_status(in))
		status = tr_in_status(in);
	if (!status)
		status = tr_syn_end(syn);
	tr_close(in);
	/* The trace stays written, for a look at what went wrong. */
	if (!status && (nbad = tr_vf_end(vf, NULL, "-T: check", NULL)) > 0) {
		tr_warn("-T: the trace disagrees with its models in %ld "
		    "value%s: it is no prediction%s", nbad, nbad > 1 ? "s" : "",
		    wflag ? "" : " (-W: a warning)");
		if (!wflag)
			status = TR_EXIT_CHECK;
	}
	return status;
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	char **files;
	int c, nf = 0, i, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "E:G:n:N:QR:TW", &opts)) != -1) {
		switch (c) {
		case 'E': tol = tr_opt_pos('E', optarg); break;
		case 'n':
			tnp = (double)tr_opt_int('n', optarg, 1, 10000000);
			break;
		case 'N': tN = tr_opt_pos('N', optarg); break;
		case 'R':
			seed = (uint64_t)tr_opt_int('R', optarg, INT64_MIN,
			    INT64_MAX);
			break;
		case 'G': tr_opt_ranks('G', optarg, &shard, &nshard);
			tr_shard('G', optarg, shard, nshard, TR_SHARD_WRITES);
			break;
		case 'Q': qflag = 1; break;
		case 'T': tflag = 1; break;
		case 'W': wflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (nshard && !tflag)
		usage();
	files = tr_calloc((size_t)argc + 1, sizeof *files);
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "np=", 3) == 0) {
			if (tr_parse_f64(argv[i] + 3, strlen(argv[i] + 3),
			    &tnp) < 0)
				usage();
		} else if (strncmp(argv[i], "N=", 2) == 0) {
			if (tr_parse_f64(argv[i] + 2, strlen(argv[i] + 2),
			    &tN) < 0)
				usage();
		} else {
			files[nf++] = argv[i];
		}
	}
	if (tnp < 1 || tnp != floor(tnp) || tnp > 1e7 ||
	    (tN != -1 && !(tN > 0)))
		usage();
	xp = tr_xp_new(tnp, tN);
	o = tr_out_open(1, 0);
	status = tflag ? synth(nf, files, o) : predict(nf, files, o);
	tr_out_close(o);
	tr_xp_report(xp);
	tr_syn_free(syn);
	tr_vf_free(vf);
	tr_xp_free(xp);
	free(files);
	free(shard);
	return status;
}
