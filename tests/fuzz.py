#!/usr/bin/env python3
# A mutation fuzzer for the tr programs; not run by `make check`.
#
#   make V=asan && make
#   python3 tests/fuzz.py seeds DIR            # seed corpus from bin/ (tr-gen,
#                                              # samples, tool outputs, nets)
#   python3 tests/fuzz.py run DIR [-t SECS] [-T TOOL,...] [-s SEED]
#
# TR_FUZZ_BIN=DIR runs the programs of DIR instead of build/asan/bin,
# e.g. a build that also traps double-to-integer overflow:
#   make V=fcast OPT='-O1 -g -fsanitize=address,undefined,float-cast-overflow'
#       LDFLAGS='-fsanitize=address,undefined,float-cast-overflow'
#
# `run` mutates the seeds of DIR (bytes, lines, numeric fields set to
# extremes, headers repeated or mutated mid-stream, records before headers,
# long lines, truncated gzip, ...) and runs the build/asan/bin programs
# on them one at a time with a 10 s timeout. It flags exits by signal,
# ASan/UBSan/LeakSanitizer reports, timeouts, exit statuses outside
# tr(7)'s 0-4, errors (status 3) that are not one line "tr-NAME: FILE:LINE:
# ...", and successful tr output that bin/tr-cat rejects or that holds
# nan/inf; each finding is saved under DIR/findings/ with a shell line to
# replay it. Seeds and findings stay out of the repository.
import gzip
import os
import random
import re
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASAN = os.environ.get('TR_FUZZ_BIN', os.path.join(TOP, 'build/asan/bin'))
PLAIN = os.path.join(TOP, 'bin')
ENV = dict(os.environ,
           ASAN_OPTIONS='detect_leaks=1:abort_on_error=0',
           UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1',
           LC_ALL='C')
TIMEOUT = 10
ORACLE = PLAIN + '/tr-cat'


def sh(cmd, out=None, cwd=None):
    with open(out, 'wb') if out else open(os.devnull, 'wb') as f:
        subprocess.run(cmd, shell=True, stdout=f, cwd=cwd, check=False)


def make_seeds(d):
    os.makedirs(d, exist_ok=True)
    b = PLAIN + '/tr-'
    for p in ('ring', 'stencil1d', 'stencil2d', 'stencil3d', 'alltoall',
              'master'):
        sh(f'{b}gen -p {p} -n 4 -i 2', f'{d}/gen-{p}.tr')
    sh(f'{b}gen -p stencil2d -n 8 -i 2 -a 1 -j 0.1 -s 3', f'{d}/gen-s2d8.tr')
    for n in (4, 8, 16):
        sh(f'{b}gen -p stencil2d -n {n} -i 2 -N 100', f'{d}/g{n}.tr')
    sh(f'{b}cat -m {TOP}/samples/stencil/np4/*.gz', f'{d}/np4.tr')
    shutil.copy(f'{TOP}/samples/stencil/np4/rank.1.tr.gz', f'{d}/rank1.tr.gz')
    sh(f'{b}delta {d}/gen-stencil2d.tr', f'{d}/delta.tr')
    sh(f'{b}delta -s {d}/gen-stencil2d.tr', f'{d}/dsum.tr')
    sh(f'{b}delta {d}/gen-stencil2d.tr | {b}hist -p -t delta -f wall -k key'
       ' -b 4', f'{d}/hist.tr')
    sh(f'{b}stat {d}/gen-stencil2d.tr', f'{d}/stat.tr')
    sh(f'{b}profile {d}/np4.tr', f'{d}/prof.tr')
    sh(f'{b}waits {d}/np4.tr', f'{d}/waits.tr')
    sh(f'{b}nsim -n {TOP}/pipelines/net/fattree.net {d}/gen-ring.tr',
       f'{d}/sim.tr')
    sh(f'for n in 4 8 16; do {b}delta -s {d}/g$n.tr; {b}stat {d}/g$n.tr |'
       f' {b}filter \'type != "cmat"\'; done', f'{d}/fitin.tr')
    sh(f'for n in 4 8 16; do {b}delta {d}/g$n.tr | {b}hist -t delta -f wall'
       f' -k key -b 3; done', f'{d}/fitin-hist.tr')
    sh(f'{b}fit -i {d}/fitin.tr 2>/dev/null', f'{d}/models.tr')
    sh(f'{b}fit -i {d}/fitin-hist.tr 2>/dev/null', f'{d}/models-hist.tr')
    sh(f'{b}extrap -n 32 {d}/models.tr', f'{d}/pred.tr')
    sh(f'{b}extrap -n 32 {d}/models-hist.tr', f'{d}/pred-hist.tr')
    sh(f'{b}accuracy {d}/pred.tr {d}/fitin.tr', f'{d}/acc.tr')
    sh(f'{b}mean {d}/prof.tr {d}/prof.tr', f'{d}/mean.tr')
    sh(f'{b}diff {d}/prof.tr {d}/prof.tr', f'{d}/diff.tr')
    for f in ('fattree', 'cluster', 'crossbar', 'shm'):
        shutil.copy(f'{TOP}/pipelines/net/{f}.net', d)
    with open(f'{d}/torus.net', 'w') as f:
        f.write('topology torus 2 2 2\nranks-per-node 2\nmapping round-robin\n'
                'eager-threshold trace 4096\nlink-bandwidth 100Gbps\n')
    with open(f'{d}/dfly.net', 'w') as f:
        f.write('topology dragonfly 3 2 1 1\nmapping block\n')
    shutil.copy(f'{TOP}/pipelines/cg.model', d)
    pf = '#fields\tparam\top\tcomm\tsize\talpha\tbeta\tlo\thi\tpoints\terr\n'
    with open(f'{d}/params.tr', 'w') as f:
        f.write('#tr 1\n#meta np=8\n' + pf +
                'param\tMPI_Allreduce\tworld\t2\t1000\t0.5\t8\t65536\t5\t0.1\n'
                'param\tMPI_Allreduce\tworld\t8\t4000\t1\t8\t65536\t5\t0.1\n'
                'param\tMPI_Allgather\trow\t2\t2000\t0.25\t8\t65536\t5\t0.1\n'
                'param\tMPI_Send\tworld\t2\t3000\t0.125\t8\t65536\t5\t0.1\n')
    sh(f'{b}model -f {d}/cg.model -P {d}/params.tr -n 100,200 -p 2',
       f'{d}/phase.tr')
    rf = '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
    ef = ('#fields\tev\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes'
          '\ttag\tcomm\treq\troot\n')
    with open(f'{d}/reg.tr', 'w') as f:
        f.write('#tr 1\n#meta np=2\n#meta timer.cost=100\n'
                '#meta barrier.cost=1000\n' + rf + ef)
        for r in (0, 1):
            f.write(f'reg\t{r}\t0\tenter\tmv\t1000\t-1\t0\n'
                    f'ev\t{r}\t1\tMPI_Barrier\t1100\t2500\t0\tx\t-1\t0\t-1\t0\t-1\t-1\n'
                    f'ev\t{r}\t2\tMPI_Allgather\t5000\t6000\t0\tx\t1\t80\t-1\t0\t-1\t-1\n'
                    f'reg\t{r}\t3\tleave\tmv\t{11000 + 2000 * r}\t-1\t2\n'
                    f'reg\t{r}\t4\tenter\tdot\t{11000 + 2000 * r}\t-1\t2\n'
                    f'reg\t{r}\t5\tleave\tdot\t{12000 + 2000 * r}\t-1\t4\n')
    sh(f'{b}barrier-correct -c phase -n 100 {d}/reg.tr', f'{d}/corr.tr')
    with open(f'{d}/strace.txt', 'w') as f:
        f.write('100 10:00:00.000001 openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = 3 <0.000020>\n'
                '100 10:00:00.000100 read(3, "root:x:0:0"..., 4096) = 1234 <0.000010>\n'
                '101 10:00:00.000300 read(0,  <unfinished ...>\n'
                '100 10:00:00.000400 close(3)          = 0 <0.000004>\n'
                '100 10:00:00.000500 openat(AT_FDCWD, "/x", O_RDONLY) = -1 ENOENT (No such file) <0.000007>\n'
                '101 10:00:00.001300 <... read resumed>"abc", 3) = 3 <0.001000>\n'
                '100 10:00:00.001400 brk(NULL)         = 0x55f0e9ea8000 <0.000001>\n'
                '100 10:00:00.001500 --- SIGCHLD {si_signo=SIGCHLD} ---\n'
                '100 10:00:00.001600 exit_group(0)     = ?\n'
                '100 10:00:00.001700 +++ exited with 0 +++\n'
                '1700000000.500000 read(3</tmp/x y>, "a", 1) = 1 <0.000002>\n'
                '[pid  7] 1700000000.600000 write(1</dev/pts/0>, "a", 1) = 1 <0.000003>\n')
    sh(f'{b}from-strace {d}/strace.txt', f'{d}/sys.tr')
    with open(f'{d}/jobs.tr', 'w') as f:
        f.write('#tr 1\n#meta run=vm.1.1\n#fields\tjob\thost\tpid\ttarget\tstart'
                '\telapsed\tuser\tsys\tmaxrss\tminflt\tmajflt\tstatus\tcmd\n'
                'job\tvm\t18848\t-\t1795753509605754391\t3797289\t795000\t0'
                '\t1650688\t83\t0\t0\ttrue\n'
                'job\tvm\t18850\ta.o\t1795753509610675880\t11994624\t1680000'
                '\t0\t1683456\t161\t1\t0\tsleep 0.01\n')
    with open(f'{d}/exprs.txt', 'w') as f:
        f.write('rank==0\nop == "MPI_Send"\ntype=="ev" && end - start >= 1us\n'
                'site ~ "@a\\\\.c:2[0-9]$"\nop in {MPI_Init, "MPI_Recv"}\n'
                'op !~ "^MPI_(Init|Send)$" && bytes == 4KiB - 0\n'
                '3.2e+06 + 1.5e+05 * n^0.5 * log2(n) > 3.5e6\n'
                'abs(1e3 * N - 2e4) < 1\nmax(bytes, 2) % 3 == pow(2, -1)\n'
                '-(-rank) ^ 2 ^ 3 / 0 != floor(sqrt(log(exp(ceil(1)))))\n')


# -- mutations ------------------------------------------------------------

EXTREMES = [b'0', b'-1', b'-9223372036854775808', b'9223372036854775807',
            b'9223372036854775808', b'-9223372036854775809', b'1e308',
            b'-1e308', b'nan', b'inf', b'-inf', b'', b'-', b'1' * 400,
            b'0.5', b'1e-320', b'4294967296', b'2147483648', b'16777216',
            b'16777217', b'-0', b'007', b'0x10', b'1.5e', b'+1', b' 1',
            b'65535', b'65536', b'-2', b'3']
HEADERS = [b'#tr 1', b'#tr 2', b'#tr', b'#meta np=1', b'#meta np=3',
           b'#meta np=16777216', b'#meta np=0', b'#meta np=-1',
           b'#meta np=9223372036854775807', b'#meta np=x', b'#meta N=0',
           b'#meta N=-5', b'#meta N=nan', b'#meta end.1=SIGSEGV',
           b'#meta end.0=truncated', b'#meta end.99=exit',
           b'#meta subset=x', b'#meta eager.net=-1', b'#meta eager.shm=0',
           b'#meta eager.net=99999999999999999999', b'#meta timer.cost=-5',
           b'#meta barrier.cost=1e308', b'#meta clock.offset.1=-1',
           b'#meta cpu.window=0', b'#meta run=other', b'#meta', b'#meta =',
           b'#meta k', b'#fields', b'#fields\tev', b'#fields\tx\ta\tb',
           b'#fields\tev\trank\tseq', b'# comment', b'#', b'#x',
           b'#meta mean.runs=0', b'#meta diff.tests=-1',
           b'#meta gen.pattern=ring', b'#meta module.a=/nonexistent']


def split_fields(line):
    return line.split(b'\t')


def mutate_lines(r, lines, seeds):
    n = len(lines)
    op = r.randrange(16)
    if n == 0:
        return [r.choice(HEADERS)]
    i = r.randrange(n)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[r.randrange(n)])
    elif op == 2:
        j = r.randrange(n)
        lines[i], lines[j] = lines[j], lines[i]
    elif op in (3, 4, 5, 6):
        f = split_fields(lines[i])
        k = r.randrange(len(f))
        if op == 6 and len(f) > 1:
            k = r.randrange(1, len(f))
        f[k] = r.choice(EXTREMES)
        lines[i] = b'\t'.join(f)
    elif op == 7:
        lines.insert(i, r.choice(HEADERS))
    elif op == 8:
        # a record before the headers
        recs = [x for x in lines if not x.startswith(b'#')]
        if recs:
            lines.insert(0, r.choice(recs))
    elif op == 9:
        f = split_fields(lines[i])
        if r.random() < 0.5 and len(f) > 1:
            del f[r.randrange(len(f))]
        else:
            f.insert(r.randrange(len(f) + 1), r.choice(EXTREMES))
        lines[i] = b'\t'.join(f)
    elif op == 10:
        # small integer changes to a numeric field: ranks, peers, seq, req
        f = split_fields(lines[i])
        k = r.randrange(len(f))
        if re.fullmatch(rb'-?[0-9]+', f[k] or b'x'):
            v = int(f[k]) + r.choice([-2, -1, 1, 2, 7, 100, -100, 1 << 20])
            f[k] = str(v).encode()
            lines[i] = b'\t'.join(f)
    elif op == 11:
        other = r.choice(seeds)
        if other:
            j = r.randrange(len(other))
            lines[i:i] = other[j:j + r.randint(1, 8)]
    elif op == 12:
        lines.insert(i, b'')
    elif op == 13:
        f = split_fields(lines[i])
        k = r.randrange(len(f))
        f[k] = f[k] * r.choice([2, 100, 70000 // max(1, len(f[k])) + 1])
        lines[i] = b'\t'.join(f)
    elif op == 14:
        # copy a whole header block mid-stream, perhaps with other np
        hdr = [x for x in lines if x.startswith(b'#')]
        if r.random() < 0.5:
            hdr = [re.sub(rb'np=\d+', b'np=' + str(r.choice(
                [1, 2, 3, 5, 64, 100000])).encode(), x) for x in hdr]
        lines[i:i] = hdr
    else:
        # a field's value from another line's same column
        j = r.randrange(n)
        f, g = split_fields(lines[i]), split_fields(lines[j])
        k = r.randrange(min(len(f), len(g)))
        f[k] = g[k]
        lines[i] = b'\t'.join(f)
    return lines


def mutate_bytes(r, data):
    data = bytearray(data)
    for _ in range(r.randint(1, 4)):
        if not data:
            data += b'\n'
        i = r.randrange(len(data))
        op = r.randrange(5)
        if op == 0:
            data[i] ^= 1 << r.randrange(8)
        elif op == 1:
            data.insert(i, r.choice(b'\t\n#-0123456789.e,:=\x00\xff '))
        elif op == 2:
            del data[i]
        elif op == 3:
            data[i] = r.choice(b'\t\n#-09')
        else:
            del data[i:i + r.randint(1, 50)]
    return bytes(data)


def mutate(r, data, seeds, textual=True):
    gz = data[:2] == b'\x1f\x8b'
    if gz:
        data = gzip.decompress(data)
    if r.random() < 0.25 or not textual:
        data = mutate_bytes(r, data)
    else:
        lines = data.split(b'\n')
        last = lines.pop() if lines and lines[-1] == b'' else None
        for _ in range(r.choice([1, 1, 1, 2, 3, 5])):
            lines = mutate_lines(r, lines, seeds)
        data = b'\n'.join(lines) + (b'\n' if last is not None else b'')
        if r.random() < 0.03:
            data = data[:r.randrange(len(data) + 1)]
    if gz or r.random() < 0.08:
        data = gzip.compress(data, 1)
        if r.random() < 0.3:
            data = data[:r.randrange(len(data) + 1)]
    return data


# -- targets --------------------------------------------------------------
# Each target: tool, argv template, {placeholder: seed names}. A
# placeholder in UPPER case is a file that gets mutated when chosen.

TRACES = ['gen-ring.tr', 'gen-stencil1d.tr', 'gen-stencil2d.tr',
          'gen-stencil3d.tr', 'gen-alltoall.tr', 'gen-master.tr',
          'gen-s2d8.tr', 'rank1.tr.gz', 'reg.tr', 'g4.tr', 'np4.tr']
SMALLTR = [t for t in TRACES if t != 'np4.tr']
NETS = ['fattree.net', 'cluster.net', 'crossbar.net', 'shm.net',
        'torus.net', 'dfly.net']
DERIVED = ['delta.tr', 'dsum.tr', 'hist.tr', 'stat.tr', 'prof.tr',
           'waits.tr', 'sim.tr', 'fitin.tr', 'fitin-hist.tr', 'models.tr',
           'models-hist.tr', 'pred.tr', 'pred-hist.tr', 'acc.tr', 'mean.tr',
           'diff.tr', 'phase.tr', 'corr.tr', 'sys.tr', 'jobs.tr']
ALL = TRACES + DERIVED

TARGETS = [
    ('cat', '{A}', {'A': ALL}),
    ('cat', '-m {A} {B}', {'A': SMALLTR, 'B': SMALLTR}),
    ('json', '{A}', {'A': ALL}),
    ('delta', '{A}', {'A': TRACES}),
    ('delta', '-s {A}', {'A': TRACES}),
    ('delta', '-o {A}', {'A': TRACES}),
    ('hist', '{A}', {'A': DERIVED}),
    ('hist', '-p -t delta -f wall -k key -b 4 {A}', {'A': ['delta.tr',
                                                            'hist.tr']}),
    ('hist', '-m {A}', {'A': ['hist.tr', 'fitin-hist.tr']}),
    ('hist', '-l 3 -t ev -f bytes {A}', {'A': TRACES}),
    ('stat', '{A}', {'A': TRACES}),
    ('profile', '{A}', {'A': TRACES + ['prof.tr']}),
    ('profile', '-a -s mean,min,max {A}', {'A': TRACES}),
    ('filter', '{E} {A}', {'E': ['exprs.txt'], 'A': ALL}),
    ('filter', '-r 0-1,3 -w 1us:2ms {A}', {'A': TRACES}),
    ('waits', '{A}', {'A': TRACES}),
    ('fit', '-i {A}', {'A': ['fitin.tr', 'fitin-hist.tr']}),
    ('fit', '-i -f scalaextrap {A}', {'A': ['fitin.tr']}),
    ('extrap', '-n 32 {A}', {'A': ['models.tr', 'models-hist.tr']}),
    ('extrap', '-T -n 32 {A} {t}', {'A': ['models.tr'], 't': ['g16.tr']}),
    ('extrap', '-T -n 32 {m} {A}', {'m': ['models.tr'], 'A': ['g16.tr']}),
    ('accuracy', '{A} {b}', {'A': ['pred.tr', 'pred-hist.tr'],
                             'b': ['fitin.tr', 'fitin-hist.tr']}),
    ('accuracy', '{a} {B}', {'a': ['pred.tr', 'pred-hist.tr'],
                             'B': ['fitin.tr', 'fitin-hist.tr']}),
    ('nsim', '{A}', {'A': TRACES}),
    ('nsim', '-n {N} {t}', {'N': NETS, 't': SMALLTR}),
    ('nsim', '-n {n} {A}', {'n': NETS, 'A': TRACES}),
    ('to-ti', '-o {O} {A}', {'A': TRACES}),
    ('to-ti', '-o {O} -n {N} {t}', {'N': NETS, 't': SMALLTR}),
    ('mean', '{A}', {'A': ['prof.tr', 'jobs.tr', 'mean.tr', 'sys.tr'] +
                     SMALLTR}),
    ('diff', '{A} {b}', {'A': ['prof.tr', 'jobs.tr', 'mean.tr'],
                         'b': ['prof.tr', 'mean.tr']}),
    ('diff', '-t -v io {A} {b}', {'A': ['jobs.tr'], 'b': ['jobs.tr']}),
    ('barrier-correct', '-c phase -n 100 {A}', {'A': ['reg.tr']}),
    ('barrier-correct', '-B phase {A}', {'A': ['corr.tr']}),
    ('model', '-f {M} -P {p} -n 100,200 -p 2', {'M': ['cg.model'],
                                                  'p': ['params.tr']}),
    ('model', '-f {m} -P {P} -n 100 -p 2', {'m': ['cg.model'],
                                             'P': ['params.tr']}),
    ('model', '-f {m} -P {p} {A}', {'m': ['cg.model'], 'p': ['params.tr'],
                                     'A': ['corr.tr', 'phase.tr']}),
    ('plot', '{A}', {'A': TRACES}),
    ('plot', '-k hist {A}', {'A': ['hist.tr', 'pred-hist.tr']}),
    ('plot', '{A}', {'A': DERIVED}),
    ('plot', '-K key=* {A} {b}', {'A': ['models.tr'], 'b': ['fitin.tr']}),
    ('report', '{A}', {'A': DERIVED + SMALLTR}),
    ('symbolize', '{A}', {'A': SMALLTR}),
    ('from-strace', '{A}', {'A': ['strace.txt']}),
    ('runs', '-d {O} add {A}', {'A': SMALLTR + ['prof.tr', 'jobs.tr']}),
    ('gen', '{G}', {}),
]


def gen_args(r):
    opts = ['-p ' + r.choice(['ring', 'stencil1d', 'stencil2d', 'stencil3d',
                              'alltoall', 'master', 'x', ''])]
    for o in 'nibcjsaSrLBN':
        if r.random() < 0.3:
            v = r.choice(['0', '-1', '1', '2', '3', '7', '100', '1e308', 'nan',
                          '9223372036854775807', '-9223372036854775808',
                          '', 'x', '0.5', '1:2', '0:0', '99:1e9', '5:-1',
                          '1us', '10Gbps', '1KB'])
            if o == 'n' and v in ('100', '9223372036854775807', '1e308'):
                v = '100'
            if o == 'i' and v in ('9223372036854775807', '1e308', '100'):
                v = '3'
            opts.append(f"-{o} '{v}'")
    return ' '.join(opts)


def expr_mutate(r, exprs):
    e = r.choice(exprs)
    for _ in range(r.randint(1, 3)):
        ops = [lambda s: s + r.choice([' && ', ' || ', ' ~ ', ' in ', '^',
                                       ' == ']) + r.choice(exprs),
               lambda s: r.choice(['!', '-', '(', 'abs(', 'pow(', '{', '"'])
               + s,
               lambda s: s + r.choice([')', '}', ',', '"', ' 1e999',
                                       '^9999', ' % 0', '/0', '\\']),
               lambda s: mutate_bytes(r, s.encode()).decode('latin-1'),
               lambda s: s.replace('1', r.choice(['9' * 40, '1e400', '0'])),
               lambda s: '(' * r.randint(1, 3000) + s]
        e = r.choice(ops)(e)
    return e.replace('\n', ' ').replace('\x00', '')


SANRE = re.compile(rb'AddressSanitizer|LeakSanitizer|runtime error:|'
                   rb'UndefinedBehaviorSanitizer')
LINERE = re.compile(rb'^tr-[a-z-]+: [^:\n]+:[0-9]+: ')


def check(tool, rc, out, err, outfile_tr, inputs):
    if rc == 'timeout':
        return 'timeout'
    if SANRE.search(err):
        m = re.search(rb'(ERROR: \w+Sanitizer: [\w-]+|runtime error: [^\n]{0,60}'
                      rb'|detected memory leaks)', err)
        fr = re.search(rb'#\d+ 0x[0-9a-f]+ in (\w+) [^\n]*?(\w+\.c):(\d+)',
                       err)
        sig = (m.group(1) if m else b'san') + b' @' + \
            (fr.group(1) + b' ' + fr.group(2) if fr else b'?')
        return sig.decode('latin-1')
    if rc < 0 or rc >= 128:
        return f'signal/status {rc}'
    if rc not in (0, 1, 2, 3, 4):
        return f'status {rc}'
    lines = [x for x in err.split(b'\n') if x]
    if rc == 3:
        if not lines or not LINERE.match(lines[-1]):
            return 'status 3 without FILE:LINE: ' + \
                (lines[-1][:60].decode('latin-1') if lines else '(nothing)')
    if rc in (3, 4) and len(lines) > 1:
        return f'status {rc} with {len(lines)} lines of stderr'
    if rc == 0 and outfile_tr and out:
        if re.search(rb'\t(-?nan|-?inf)(\t|\n)', out) and \
                not re.search(rb'nan|inf', inputs):
            return 'nan/inf in output'
        p = subprocess.run([ORACLE], input=out,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode != 0:
            return 'output rejected by tr-cat: ' + \
                p.stderr.split(b':', 3)[-1][:60].decode('latin-1')
    return None


def run(d, secs, only, seed):
    r = random.Random(seed)
    seeds = {}
    for f in os.listdir(d):
        p = os.path.join(d, f)
        if os.path.isfile(p):
            with open(p, 'rb') as fh:
                seeds[f] = fh.read()
    lines_of = [(gzip.decompress(v) if v[:2] == b'\x1f\x8b' else v).split(
        b'\n') for k, v in seeds.items() if k.endswith('.tr')]
    exprs = seeds['exprs.txt'].decode().strip().split('\n')
    work = os.path.join(d, 'work')
    # bin/tr-cat judges outputs; a copy, so that rebuilding bin/ while
    # the fuzzer runs does not stop it
    global ORACLE
    ORACLE = os.path.join(d, 'tr-cat.oracle')
    shutil.copy(PLAIN + '/tr-cat', ORACLE)
    finds = os.path.join(d, 'findings')
    os.makedirs(finds, exist_ok=True)
    targets = [t for t in TARGETS if not only or t[0] in only]
    execs = {}
    seen = {}
    end = time.time() + secs
    it = 0
    while time.time() < end:
        it += 1
        tool, tmpl, slots = r.choice(targets)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        args = {}
        for name, choices in slots.items():
            src = r.choice(choices)
            data = seeds[src]
            if name == 'E':
                args[name] = "'" + expr_mutate(r, exprs).replace(
                    "'", "'\\''") + "'"
                continue
            if name.isupper():
                data = mutate(r, data, lines_of)
            path = os.path.join(work, name + '.' + src)
            with open(path, 'wb') as fh:
                fh.write(data)
            args[name] = path
        args['O'] = os.path.join(work, 'out')
        if tool == 'gen':
            args['G'] = gen_args(r)
        if tool == 'runs':
            os.makedirs(args['O'])
        cmd = f'{ASAN}/tr-{tool} ' + tmpl.format(**args)
        p = subprocess.Popen(cmd, shell=True, env=ENV, cwd=work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=TIMEOUT)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.communicate()
            rc, out, err = 'timeout', b'', b''
        execs[tool] = execs.get(tool, 0) + 1
        tr_out = tool not in ('plot', 'report', 'json', 'to-ti', 'runs') \
            and not (' ' + tmpl).count(' -t ')
        inputs = b''.join(open(os.path.join(work, f), 'rb').read()
                          for f in os.listdir(work)
                          if os.path.isfile(os.path.join(work, f)))
        why = check(tool, rc, out, err, tr_out, inputs + cmd.encode())
        if why:
            key = (tool, re.sub(r'\d+', 'N', why))
            seen[key] = seen.get(key, 0) + 1
            if seen[key] <= 3:
                k = len(os.listdir(finds))
                fd = os.path.join(finds, f'{k:04d}-{tool}')
                shutil.copytree(work, fd)
                with open(os.path.join(fd, 'CMD'), 'w') as fh:
                    fh.write(f'# {why}\ncd {fd} && ' +
                             cmd.replace(work, fd) + '\n')
                with open(os.path.join(fd, 'STDERR'), 'wb') as fh:
                    fh.write(err[-20000:])
                print(f'[{it}] {tool}: {why}\n    {fd}', flush=True)
    print('executions per tool:', ' '.join(
        f'{k}={v}' for k, v in sorted(execs.items())))
    print('findings:')
    for (tool, why), n in sorted(seen.items()):
        print(f'  {n:5d}  tr-{tool}: {why}')


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'seeds':
        make_seeds(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'run':
        secs, only, seed = 600, None, 1
        a = sys.argv[3:]
        while a:
            if a[0] == '-t':
                secs = float(a[1])
            elif a[0] == '-T':
                only = a[1].split(',')
            elif a[0] == '-s':
                seed = int(a[1])
            a = a[2:]
        run(sys.argv[2], secs, only, seed)
    else:
        sys.exit('usage: fuzz.py seeds DIR | run DIR '
                 '[-t secs] [-T tool,...] [-s seed]')


if __name__ == '__main__':
    main()
