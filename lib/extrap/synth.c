/* synth.c - a whole trace at a target scale from the trace of a run at
 * a smaller one (the template): ranks mapped by their position on the
 * process grid the template's messages reveal, peers and bytes scaled
 * strongly or weakly, delta times drawn from extrapolated histograms.
 * Here the synthesiser is made, readied between its two passes over the
 * template (synth-learn.c, synth-emit.c), and freed. */
#include "synth-int.h"

struct tr_syn *
tr_syn_new(struct tr_xp *xp, long np, double N, uint64_t seed)
{
	struct tr_syn *s = tr_calloc(1, sizeof *s);

	s->xp = xp;
	s->nt = np;
	s->N = N;
	s->tN = -1;
	s->seed = seed;
	s->P = -1;
	s->pmap = tr_map_new();
	s->cmap = tr_map_new();
	s->msgs = tr_map_new();
	s->bmap = tr_map_new();
	s->smap = tr_map_new();
	s->dmap = tr_map_new();
	s->hmap = tr_map_new();
	s->sitemap = tr_map_new();
	s->curmap = tr_map_new();
	s->keptmap = tr_map_new();
	s->pat = tr_pat_new();
	tr_pat_subcomms(s->pat);
	return s;
}

void
tr_syn_files(struct tr_syn *s, int nfiles, char **files)
{
	s->files = files;
	s->nfiles = nfiles;
}

/* Frees an itab and the values it holds. */
static void
free_itab(struct tr_itab *h)
{
	size_t i;

	for (i = 0; i < h->cap; i++)
		free(h->s[i].v);
	tr_itab_free(h);
}

void
tr_syn_begin(struct tr_syn *s, struct tr_out *o)
{
	long t, q, nt = s->nt, P = s->P;
	char buf[32], dims[64], why[160] = "", pwhy[2048] = "";
	int known;

	if (P < 0)
		tr_die_files(s->nfiles, s->files, "-T: no ev records: "
		    "give the trace of a run as the template");
	syn_learn_structure(s);
	/* Target ranks follow template ranks: each must have its records. */
	if (s->nseen != P)
		tr_die(TR_EXIT_DATA, "%s:%ld: -T: the template has #meta "
		    "np=%ld, but ev records of only %ld rank%s: give the files "
		    "of every rank", s->npfile, s->npline, P, s->nseen,
		    s->nseen == 1 ? "" : "s");
	known = syn_template_grid(s, why, sizeof why);
	/* Pairs that lie on a grid but leave out neighbours some ranks
	 * have (a binomial tree on 2x2x2 ranks) are grown by their peer
	 * functions when those explain them. */
	if (known >= 0 && !syn_stencil(s, &s->g) &&
	    syn_peer_begin(s, pwhy, sizeof pwhy) == 0)
		known = -1;
	else if (known < 0 && syn_peer_begin(s, pwhy, sizeof pwhy) < 0)
		tr_die_files(s->nfiles, s->files, "-T: the template's "
		    "point-to-point messages are not nearest-neighbour on a "
		    "1-D, 2-D or 3-D grid of %ld ranks%s; %s", P, why, pwhy);
	tr_xp_eval2(s->xp, (double)P, s->tN);
	s->nratio = s->peermode ? 1 : syn_size_ratio(s);
	if (!s->peermode) {
		s->tg = s->g;
		s->tg.np = nt;
		syn_target_grid(s, known);
		if (known)
			syn_warn_flat(s);
		s->strong = syn_strong_scaling(&s->g, s->pairs, s->pbytes,
		    s->npairs);
		if (s->strong < 0)
			s->strong = syn_strong_by_models(s);
	}
	if (s->strong < 0) {
		syn_grid_str(&s->g, dims, sizeof dims);
		tr_warn("-T: the template's grid, %s, has equal extents, "
		    "which do not show whether messages shrink with more "
		    "ranks, and no opstat model of a point-to-point send "
		    "tells: sizes kept as recorded (weak scaling)", dims);
		s->strong = 0;
	}
	if (!s->peermode)
		syn_fold_sends(s);
	syn_collect_bins(s);
	syn_check_bins(s);
	if (s->peermode)
		syn_scale_learn(s);
	if (!s->peermode)
		syn_map_ranks(s, known);
	s->lag = tr_calloc((size_t)nt, sizeof *s->lag);
	s->nfol = tr_calloc((size_t)P, sizeof *s->nfol);
	for (t = 0; t < nt; t++) {
		/* Off a grid, a burst's place in a cycle of peers is no
		 * place in a grid rank's sequence: a lag would move the
		 * compute of a cycle's first call to another. */
		s->lag[t] = s->peermode ? 0 : s->nfol[s->rep[t]] % MAXLAG;
		s->nfol[s->rep[t]]++;
		if (s->lag[t] + 1 > s->nlag)
			s->nlag = s->lag[t] + 1;
	}
	s->hcap = s->nlag > NLEVEL ? s->nlag : NLEVEL;
	s->tgt = tr_calloc((size_t)nt, sizeof *s->tgt);
	for (t = 0; t < nt; t++)
		s->tgt[t].rng = s->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)t;
	s->tm = tr_calloc((size_t)P, sizeof *s->tm);
	s->curhead = tr_malloc((size_t)P * sizeof *s->curhead);
	for (q = 0; q < P; q++)
		s->curhead[q] = -1;
	free_itab(&s->pirecv);
	syn_comm_begin(s);
	syn_vcoll_begin(s);

	tr_out_begin(o);
	if (s->peermode)
		snprintf(dims, sizeof dims, "none");
	else
		syn_grid_str(&s->tg, dims, sizeof dims);
	if (s->peermode)
		snprintf(s->gridrule, sizeof s->gridrule, "the peer "
		    "functions of (rank, P) of tr-pattern(1)");
	tr_out_printf(o, "#meta np=%ld\n", nt);
	if (s->N >= 0)
		tr_out_printf(o, "#meta N=%s\n", tr_f64str(buf, s->N));
	tr_out_printf(o, "#meta tool=tr-extrap %s\n#meta extrap=synthetic\n"
	    "#meta extrap.template.np=%ld\n#meta extrap.grid=%s\n"
	    "#meta extrap.grid.rule=%s\n"
	    "#meta extrap.seed=%llu\n#meta extrap.bytes=%s\n", TR_VERSION, P,
	    dims, s->gridrule, (unsigned long long)s->seed,
	    s->strong ? "strong" : "weak");
	syn_comm_meta(s, o);
	if (s->vf) {
		tr_vf_grid(s->vf, &s->tg);
		tr_vf_from(s->vf, (double)P);
	}
	tr_out_fields(o, TR_EV);
	tr_out_fields(o, TR_COMM);
	if (s->carts.n || syn_comm_carts(s))
		tr_out_fields(o, TR_CART);
	syn_carry_reset(s);
}

void
tr_syn_verify(struct tr_syn *s, struct tr_vf *vf)
{
	s->vf = vf;
}

int
syn_carry(struct tr_syn *s, const struct tr_rec *r, struct tr_ev *e)
{
	int64_t rank = r->type == TR_EV ? r->u.ev.rank : r->type == TR_REG ?
	    r->u.reg.rank : -1;

	if (rank < 0 || rank >= s->P)
		return 0;
	if (!s->carry)
		s->carry = tr_calloc((size_t)s->P, sizeof *s->carry);
	if (r->type == TR_REG) {
		if (r->u.reg.cpu > 0)
			s->carry[rank] += r->u.reg.cpu;
		return 0;
	}
	*e = r->u.ev;
	if (e->cpu >= 0)
		e->cpu += s->carry[rank];
	s->carry[rank] = 0;
	return 1;
}

void
syn_carry_reset(struct tr_syn *s)
{
	if (s->carry)
		memset(s->carry, 0, (size_t)s->P * sizeof *s->carry);
}

void
tr_syn_free(struct tr_syn *s)
{
	long t;

	if (!s)
		return;
	free(s->npfile);
	for (t = 0; s->tm && t < s->P; t++)
		free(s->tm[t].psite);
	free(s->tm);
	for (t = 0; t < (long)s->nhist; t++)
		free(s->hist[t].v);
	free(s->hist);
	free(s->hkey);
	tr_map_free(s->hmap);
	free(s->lag);
	free(s->nfol);
	free(s->carry);
	free(s->tgt);
	free(s->rep);
	free(s->repx);
	free(s->pairs);
	free(s->pbytes);
	free(s->csize);
	free(s->cworld);
	free(s->rseen);
	free(s->moves);
	free(s->nmoves);
	for (t = 0; t < (long)s->npst; t++)
		free(s->pst[t].mem);
	free(s->pst);
	syn_comm_free(s);
	syn_vcoll_free(s);
	free(s->evsect);
	free(s->bins);
	free(s->key);
	tr_map_free(s->bmap);
	free(s->bkey);
	tr_map_free(s->pmap);
	tr_map_free(s->cmap);
	tr_map_free(s->msgs);
	free(s->mcount);
	tr_map_free(s->smap);
	tr_map_free(s->dmap);
	for (t = 0; t < (long)tr_map_len(s->curmap); t++)
		syn_cursor_close(s, &s->cur[t]);
	free(s->cur);
	tr_map_free(s->curmap);
	free(s->curhead);
	tr_map_free(s->sitemap);
	tr_map_free(s->keptmap);
	free(s->kept);
	tr_pat_free(s->pat);
	tr_map_free(s->ppmap);
	tr_map_free(s->smapk);
	free(s->bsc);
	free(s->lkey);
	free(s->ppos);
	free(s->pcyc);
	free(s->pinv);
	free(s->psite);
	free(s->gkey);
	free_itab(&s->pgpos);
	free_itab(&s->pglast);
	free(s->siterel);
	free(s->rkey);
	free(s->fspan);
	free(s->nev);
	free(s->nomatch);
	free_itab(&s->pirecv);
	free_itab(&s->rbytes);
	free_itab(&s->preq);
	free(s->smax);
	free(s->dmax);
	free(s->skey);
	tr_itab_free(&s->side);
	free_itab(&s->stags);
	free_itab(&s->carts);
	free(s);
}
