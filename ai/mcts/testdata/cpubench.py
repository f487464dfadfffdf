"""Paired, interleaved runs of the search benchmarks of two builds (test
binaries: go test -c), timed by the CPU time the benchmark process used
(user + system, from getrusage), which other processes on a shared
machine do not inflate the way they inflate the wall clock. Each round runs
every benchmark once in each binary, one right after the other, the order
alternating from round to round (ABBA). Writes Go benchmark lines with the
units cpu-ns/op and sims/cpu-s (and the wall clock's sims/s) for benchstat.
usage: python3 cpubench.py ROUNDS BEFORE.test AFTER.test OUTDIR [ONLY]
where ONLY, a Python regular expression, keeps the benchmarks whose regexp
below it matches (say 'move=1.*workers=1|Playout'); then: benchstat OUTDIR/before.txt OUTDIR/after.txt (docs/performance.md)

The benchmarks are Blue Lagoon's (BenchmarkMCTS, BenchmarkMCTSGame,
BenchmarkPlayout: bluelagoon/bots, and ai before issue 11), by the same
names in both builds."""
import os, re, resource, subprocess, sys, time

rounds, before, after, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
benches = [  # (regexp, benchtime, simulations an op or None)
    ('MCTS$/^move=1$/^workers=1$', '10x', 2000),
    ('MCTS$/^move=1$/^workers=2$', '10x', 2000),
    ('MCTS$/^move=31$/^workers=1$', '10x', 2000),
    ('MCTS$/^move=31$/^workers=2$', '10x', 2000),
    ('MCTS$/^move=61$/^workers=1$', '10x', 2000),
    ('MCTS$/^move=61$/^workers=2$', '10x', 2000),
    ('MCTS$/^settlement\\+10$/^workers=1$', '10x', 2000),
    ('MCTS$/^settlement\\+10$/^workers=2$', '10x', 2000),
    ('MCTSGame$', '2x', None),
    ('Playout$', '20000x', None),
]
if len(sys.argv) > 5:
    benches = [b for b in benches if re.search(sys.argv[5], b[0])]
files = {b: open(os.path.join(out, name + '.txt'), 'w') for b, name in ((before, 'before'), (after, 'after'))}
for f in files.values():
    f.write('goos: linux\ngoarch: amd64\npkg: mcts\n')

def one(binary, regexp, benchtime, sims):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run([binary, '-test.run', '^$', '-test.bench', regexp, '-test.benchtime', benchtime, '-test.benchmem'],
                         capture_output=True, text=True, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    line = [l for l in res.stdout.splitlines() if l.startswith('Benchmark')][0]
    f = line.split()
    name, n = f[0], int(f[1])
    vals = {f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}
    extra = f' {cpu * 1e9 / n:.0f} cpu-ns/op'
    if 'sims/s' in vals:
        per_op = sims if sims else vals['sims/s'] * vals['ns/op'] / 1e9
        extra += f' {per_op * n / cpu:.0f} sims/cpu-s {vals["sims/s"]:.0f} sims/s'
    files[binary].write(f'{name} {n} {vals["ns/op"]:.0f} ns/op{extra} {vals.get("B/op", 0):.0f} B/op {vals.get("allocs/op", 0):.0f} allocs/op\n')
    files[binary].flush()

for i in range(rounds):
    for regexp, bt, sims in benches:
        order = (before, after) if i % 2 == 0 else (after, before)
        for b in order:
            one(b, regexp, bt, sims)
    print(f'round {i + 1} done {time.strftime("%H:%M:%S")} load {os.getloadavg()[0]:.1f}', flush=True)
