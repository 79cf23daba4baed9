/* otf2rma.c - OTF2's one-sided events: windows, transfers, atomics and
 * their synchronisation, as the ev records tr-record writes for them. */
#include "otf2-int.h"

/* One-sided calls name their window as tr-record does: the id of its
 * communicator on the rank, and the window's number among the rank's
 * (0, 1, ... in the order it made them) in tag; the communicator's
 * OTF2 id returned. */
static uint32_t
window(struct otf2in *x, uint64_t loc, int64_t r, OTF2_RmaWinRef w,
    struct item *it)
{
	uint32_t *c = DEF_FIND(x->win, w);
	void **v;

	if (!c)
		otf2_bad_event(x, loc, "window %u is not defined", w);
	it->e.comm = otf2_comm_id(x, loc, *c, r);
	v = tr_itab_get(&x->winno, r, w, 1);
	if (!*v) {
		if (!x->nwins)
			x->nwins = tr_calloc((size_t)x->np, sizeof *x->nwins);
		*v = (void *)(intptr_t)(++x->nwins[r]);
	}
	it->e.tag = (int64_t)(intptr_t)*v - 1;
	return *c;
}

/* The window (and target) of a call that moves no data: one record,
 * made or that of the call's other event (a window's creation is a
 * collective too). */
static void
call_window(struct otf2in *x, struct rank *k, uint64_t loc, int64_t r,
    OTF2_RmaWinRef w, uint32_t remote)
{
	struct item *it = k->nit ? &k->it[k->nit - 1] : otf2_newitem(k);
	uint32_t c = window(x, loc, r, w, it);

	if (remote != OTF2_UNDEFINED_UINT32)
		it->e.peer = otf2_comm_world(x, loc, c, remote);
	if (it->e.bytes < 0)
		it->e.bytes = 0;
}

EVT(on_win_create, OTF2_RmaWinRef w)
{
	INCALL("RmaWinCreate");
	call_window(x, k, loc, r, w, OTF2_UNDEFINED_UINT32);
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_rma_coll_end, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
    OTF2_RmaWinRef w, uint32_t root, uint64_t sent, uint64_t recvd)
{
	INCALL("RmaCollectiveEnd");
	(void)op, (void)level, (void)root, (void)sent, (void)recvd;
	call_window(x, k, loc, r, w, OTF2_UNDEFINED_UINT32);
	return OTF2_CALLBACK_SUCCESS;
}

/* RmaAcquireLock, RmaRequestLock and RmaTryLock alike. */
EVT(on_rma_lock, OTF2_RmaWinRef w, uint32_t remote, uint64_t id,
    OTF2_LockType type)
{
	INCALL("a lock event");
	(void)id, (void)type;
	call_window(x, k, loc, r, w, remote);
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_rma_unlock, OTF2_RmaWinRef w, uint32_t remote, uint64_t id)
{
	INCALL("RmaReleaseLock");
	(void)id;
	call_window(x, k, loc, r, w, remote);
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_rma_group_sync, OTF2_RmaSyncLevel level, OTF2_RmaWinRef w,
    OTF2_GroupRef g)
{
	INCALL("RmaGroupSync");
	(void)level, (void)g;
	call_window(x, k, loc, r, w, OTF2_UNDEFINED_UINT32);
	return OTF2_CALLBACK_SUCCESS;
}

/* The begin of a window's collective, and the completions of its
 * transfers, which the replays take from the calls that sync them. */
static OTF2_CallbackCode
on_rma_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
    OTF2_AttributeList *al)
{
	INCALL("RmaCollectiveBegin");
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_rma_done, OTF2_RmaWinRef w, uint64_t match)
{
	INCALL("an RMA operation's completion");
	(void)w, (void)match;
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_rma_sync, OTF2_RmaWinRef w, uint32_t remote, OTF2_RmaSyncType type)
{
	INCALL("RmaSync");
	(void)type;
	call_window(x, k, loc, r, w, remote);
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_win_destroy, OTF2_RmaWinRef w)
{
	struct item *it;

	INCALL("RmaWinDestroy");
	it = otf2_newitem(k);
	window(x, loc, r, w, it);
	it->e.bytes = 0;
	/* a window made again later is a new one */
	tr_itab_del(&x->winno, r, w);
	return OTF2_CALLBACK_SUCCESS;
}

/* A transfer: the target's world rank in peer, its bytes. */
static struct item *
transfer(struct otf2in *x, struct rank *k, uint64_t loc, int64_t r,
    OTF2_RmaWinRef w, uint32_t remote, uint64_t bytes)
{
	struct item *it = otf2_newitem(k);
	uint32_t c = window(x, loc, r, w, it);

	it->e.peer = otf2_comm_world(x, loc, c, remote);
	it->e.bytes = bytes > INT64_MAX ? INT64_MAX : (int64_t)bytes;
	return it;
}

/* RmaPut and RmaGet alike: the call's name says which. */
EVT(on_rma_xfer, OTF2_RmaWinRef w, uint32_t remote, uint64_t bytes,
    uint64_t match)
{
	INCALL("RmaPut or RmaGet");
	(void)match;
	transfer(x, k, loc, r, w, remote, bytes);
	return OTF2_CALLBACK_SUCCESS;
}

/* An atomic that fetches has the bytes fetched in bytes and those it
 * sends in root (tr-format(5)); one that does not, the bytes sent. */
EVT(on_rma_atomic, OTF2_RmaWinRef w, uint32_t remote, OTF2_RmaAtomicType type,
    uint64_t sent, uint64_t recvd, uint64_t match)
{
	struct item *it;

	INCALL("RmaAtomic");
	(void)type, (void)match;
	it = transfer(x, k, loc, r, w, remote, recvd ? recvd : sent);
	if (recvd)
		it->e.root = sent > INT64_MAX ? INT64_MAX : (int64_t)sent;
	return OTF2_CALLBACK_SUCCESS;
}

void
otf2_rma_callbacks(OTF2_GlobalEvtReaderCallbacks *cb)
{
	OTF2_GlobalEvtReaderCallbacks_SetRmaWinCreateCallback(cb,
	    on_win_create);
	OTF2_GlobalEvtReaderCallbacks_SetRmaWinDestroyCallback(cb,
	    on_win_destroy);
	OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(cb, on_rma_xfer);
	OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(cb, on_rma_xfer);
	OTF2_GlobalEvtReaderCallbacks_SetRmaAtomicCallback(cb, on_rma_atomic);
	OTF2_GlobalEvtReaderCallbacks_SetRmaCollectiveEndCallback(cb,
	    on_rma_coll_end);
	OTF2_GlobalEvtReaderCallbacks_SetRmaAcquireLockCallback(cb,
	    on_rma_lock);
	OTF2_GlobalEvtReaderCallbacks_SetRmaReleaseLockCallback(cb,
	    on_rma_unlock);
	OTF2_GlobalEvtReaderCallbacks_SetRmaSyncCallback(cb, on_rma_sync);
	OTF2_GlobalEvtReaderCallbacks_SetRmaRequestLockCallback(cb,
	    on_rma_lock);
	OTF2_GlobalEvtReaderCallbacks_SetRmaTryLockCallback(cb,
	    on_rma_lock);
	OTF2_GlobalEvtReaderCallbacks_SetRmaGroupSyncCallback(cb,
	    on_rma_group_sync);
	OTF2_GlobalEvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb,
	    on_rma_coll_begin);
	OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb,
	    on_rma_done);
	OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb,
	    on_rma_done);
	OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb,
	    on_rma_done);
	OTF2_GlobalEvtReaderCallbacks_SetRmaOpTestCallback(cb, on_rma_done);
}
