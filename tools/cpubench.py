"""Paired, interleaved runs of the benchmarks of two builds (test binaries
made with go test -c), timed by the CPU time each benchmark process used
(user + system, from getrusage), which other processes on a shared machine
do not inflate the way they inflate the wall clock. Each round runs every
benchmark once in each binary, one right after the other, the order
alternating from round to round (ABBA). Writes Go benchmark lines with a
cpu-ns/op unit beside the benchmark's own for benchstat, and for every rate
the benchmark reports (a unit X/s, as sims/s) the same rate by CPU time
(X/cpu-s): what a busy machine does not distort.

usage: python3 tools/cpubench.py ROUNDS BEFORE.test AFTER.test OUTDIR REGEXP=BENCHTIME...
(a regexp anchored at its start names the top level with its Benchmark prefix:
^BenchmarkScores/standard/2p)
then:  benchstat -filter '.unit:(cpu-ns/op OR sims/cpu-s)' OUTDIR/before.txt OUTDIR/after.txt

Each REGEXP=BENCHTIME names benchmarks of both builds (-test.bench) and a
fixed count of iterations (-test.benchtime, e.g. 2000x), so that both builds
do the same work. The CPU time includes the test binary's start and the
benchmark's set-up, the same in both builds."""
import os, resource, subprocess, sys, time

rounds, before, after, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
benches = [arg.rsplit('=', 1) for arg in sys.argv[5:]]
files = {b: open(os.path.join(out, name + '.txt'), 'w') for b, name in ((before, 'before'), (after, 'after'))}
for f in files.values():
    f.write('goos: linux\ngoarch: amd64\n')

def one(binary, regexp, benchtime):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run([binary, '-test.run', '^$', '-test.bench', regexp, '-test.benchtime', benchtime, '-test.benchmem'],
                         capture_output=True, text=True, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    lines = [l for l in res.stdout.splitlines() if l.startswith('Benchmark')]
    if len(lines) != 1:
        sys.exit(f'{binary} {regexp}: {len(lines)} benchmarks ran; name exactly one')
    f = lines[0].split()
    n = int(f[1])
    values = {f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}
    extra = f' {cpu * 1e9 / n:.0f} cpu-ns/op'
    for unit, v in values.items():
        if unit.endswith('/s'):
            # v counts per second of the wall clock; v * ns/op / 1e9 of
            # them an op, n ops in cpu seconds of CPU time.
            extra += f' {v * values["ns/op"] / 1e9 * n / cpu:.0f} {unit[:-2]}/cpu-s'
    files[binary].write(f'{lines[0]}{extra}\n')
    files[binary].flush()

for i in range(rounds):
    for regexp, bt in benches:
        order = (before, after) if i % 2 == 0 else (after, before)
        for b in order:
            one(b, regexp, bt)
    print(f'round {i + 1} done {time.strftime("%H:%M:%S")} load {os.getloadavg()[0]:.1f}', flush=True)
