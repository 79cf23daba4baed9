#!/usr/bin/env python3
# Random process trees as strace logs' sys records, and the time their
# wait4s keep, computed directly from the whole log (tr-mean computes it
# as the log goes, keeping only what a wait can still reach): for
# tests/tr-mean.bats.
#
#   python3 tests/reaped.py log SEED REUSE > f.tr
#   python3 tests/reaped.py waits f.tr
#
# A process calls, computes, clones children (whose calls run from
# within the clone), waits for the first of them to end (sometimes after
# a WNOHANG poll that reaps nothing), and at its end reaps the rest or
# leaves them to no one. Records come in the order the calls end, as
# strace prints them. With REUSE 1, a clone may get the pid of a process
# reaped before it.
import random
import sys


def log(seed, reuse):
    rnd = random.Random(seed)
    recs, dead, top = [], [], [100]

    def rec(pid, s, call, el, res):
        line = "sys\t%d\t%d\t%s\t-\t%d\t%d\t-" % (pid, s, call, el, res)
        recs.append((s + max(el, 0), len(recs), line))

    def newpid(t):
        free = [d for d in dead if d[0] < t]
        if reuse and free and rnd.random() < 0.3:
            d = rnd.choice(free)
            dead.remove(d)
            return d[1]
        top[0] += 1
        return top[0]

    def run(pid, t, depth):
        kids = []
        for _ in range(rnd.randint(1, 12)):
            a = rnd.random()
            if a < 0.35:
                d = rnd.randint(1, 50)
                rec(pid, t, rnd.choice(["read", "write", "openat"]), d, 1)
                t += d + rnd.randint(0, 30)
            elif a < 0.55 and depth < 4:
                d = rnd.randint(1, 20)
                c = newpid(t)
                rec(pid, t, "clone", d, c)
                kids.append((run(c, t + rnd.randint(0, d), depth + 1), c))
                t += d + rnd.randint(0, 10)
            elif a < 0.8 and kids:
                kids.sort()
                ex, c = kids.pop(0)
                if rnd.random() < 0.1:
                    rec(pid, t, "wait4", 2, 0)
                    t += 3
                end = max(t + 1, ex + rnd.randint(1, 5))
                rec(pid, t, "wait4", end - t, c)
                dead.append((end, c))
                t = end + rnd.randint(0, 10)
            else:
                t += rnd.randint(1, 40)
        if rnd.random() < 0.7:
            for ex, c in sorted(kids):
                end = max(t + 1, ex + 1)
                rec(pid, t, "wait4", end - t, c)
                dead.append((end, c))
                t = end + 1
        rec(pid, t, "exit_group", -1, -1)
        return t + 1

    run(100, 1000, 0)
    print("#tr 1")
    print("#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr")
    for r in sorted(recs):
        print(r[2])


# The sum of the wait4s, each less the union of the calls in it of the
# processes it or its reaped children reaped, and so on down; a process
# ends when reaped, and its pid is then another's.
def waits(path):
    cur, up, spans, ws = {}, {}, {}, []
    total = sub = 0

    def proc(pid):
        if pid not in cur:
            cur[pid] = len(spans)
            spans[len(spans)] = []
        return cur[pid]

    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        pid, s, call, el, res = int(f[1]), int(f[2]), f[3], int(f[5]), int(f[6])
        i = proc(pid)
        if el > 0:
            spans[i].append((s, s + el))
        if call == "wait4":
            total += max(el, 0)
            if res > 0 and res != pid:
                up[proc(res)] = i
                if el > 0:
                    ws.append((i, s, s + el))
                del cur[res]
    below = {}
    for i, sp in spans.items():
        a = up.get(i)
        while a is not None:
            below.setdefault(a, []).extend(sp)
            a = up.get(a)
    for p, s, e in ws:
        u = []
        for lo, hi in sorted(below.get(p, [])):
            if u and lo <= u[-1][1]:
                u[-1][1] = max(u[-1][1], hi)
            else:
                u.append([lo, hi])
        sub += sum(max(0, min(hi, e) - max(lo, s)) for lo, hi in u)
    print(total - sub)


if sys.argv[1] == "log":
    log(int(sys.argv[2]), sys.argv[3] == "1")
else:
    waits(sys.argv[2])
