#!/usr/bin/env python3
"""isready latency while the engine is busy: ten isready each during go infinite, go perft 7 and
bench 30 (issue 36). Usage: python3 tools/ready_latency.py ENGINE"""
import subprocess,time,statistics,sys
eng=sys.argv[1]
def run(busy):
    p=subprocess.Popen([eng],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
    def send(l): p.stdin.write(l+"\n"); p.stdin.flush(); return time.perf_counter()
    send("position startpos"); send(busy); time.sleep(0.5)
    out=[]
    for _ in range(10):
        t=send("isready")
        while True:
            line=p.stdout.readline()
            if line.strip()=="readyok": out.append((time.perf_counter()-t)*1000); break
        time.sleep(0.1)
    send("quit"); p.wait()
    return out
for busy in ["go infinite","go perft 7","bench 30"]:
    r=run(busy); print(busy, "median %.2f ms max %.2f ms"%(statistics.median(r),max(r)))
