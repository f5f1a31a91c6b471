#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A stand-in for the original chat benchmark pair (1.0.1), for tests.

Written from the facts in ../shared/ORIGINAL.md (the wire protocol, the
threads and the output lines), not from its code, which is not here:

  orig.py server [--procs] HOST PORT        like chat_s HOST PORT
  orig.py client HOST ROOMS MESSAGES PORT   like chat_c HOST ROOMS MSGS PORT

The server has, per connection, a receiver thread (100 bytes with
MSG_WAITALL, then a release of the connection's semaphore) and a sender
thread (acquires it, then sends the unit to the 19 others of the room,
blocking sends); every thread keeps the process's name, as the original's
did.  With --procs each of them is a process of its own, a child of the
server's, as the original's were (raw clone() without CLONE_THREAD): forked
once the run's connections are accepted, sharing the semaphores and counts
through multiprocessing's shared memory, and all reaped before the run's
SRV: line.  With PORT 0 the server says on its first line which port it got
(the original did not; tests need it).  Its bugs are not reproduced: only
what a chatbench client or server sees on the wire and what a foreign
server looks like to the tracer.
"""
import multiprocessing
import socket
import struct
import sys
import threading
import time

USERS = 20
UNIT = 100
READY = b"\x11"
DONE = b"\x22"


def recv_exact(sock, n):
    """n bytes, or fewer at end of stream."""
    buf = b""
    while len(buf) < n:
        got = sock.recv(n - len(buf), socket.MSG_WAITALL)
        if not got:
            break
        buf += got
    return buf


def serve_run(lst, ctl, procs):
    start = recv_exact(ctl, 8)
    if len(start) != 8:
        return
    rooms, msgs = struct.unpack("<ii", start)
    print("SRV: client connected, rooms = %d messages = %d" % (rooms, msgs),
          flush=True)
    conns = [lst.accept()[0] for _ in range(rooms * USERS)]
    if procs:
        # fork: the children inherit the sockets; the semaphores are
        # unlinked at once, so no resource tracker process is started.
        mp = multiprocessing.get_context("fork")
        sems = [mp.Semaphore(0) for _ in conns]
        received = mp.RawArray("l", len(conns))
        sent = mp.RawArray("l", len(conns))
        worker = mp.Process
    else:
        sems = [threading.Semaphore(0) for _ in conns]
        received = [0] * len(conns)
        sent = [0] * len(conns)
        worker = threading.Thread
    unit = bytes(UNIT)

    def receiver(i):
        for _ in range(msgs):
            if len(recv_exact(conns[i], UNIT)) != UNIT:
                break
            received[i] += 1
            sems[i].release()
        # A short run still lets its sender finish.
        sems[i].release()

    def sender(i):
        room = i // USERS * USERS
        for _ in range(msgs):
            sems[i].acquire()
            if received[i] <= sent[i] // (USERS - 1):
                break
            for j in range(room, room + USERS):
                if j != i:
                    conns[j].sendall(unit)
                    sent[i] += 1

    threads = []
    for i in range(len(conns)):
        threads.append(worker(target=receiver, args=(i,)))
        threads.append(worker(target=sender, args=(i,)))
    for t in threads:
        t.start()
    ctl.sendall(READY)
    for t in threads:
        t.join()
    recv_exact(ctl, 1)
    print("SRV: %u messages received, %u messages sent"
          % (sum(received), sum(sent)), flush=True)
    for c in conns:
        c.close()


def server(host, port, procs=False):
    lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lst.bind((host, port))
    lst.listen(4096)
    if port == 0:
        print("SRV: port %d" % lst.getsockname()[1], flush=True)
    while True:
        ctl = lst.accept()[0]
        try:
            serve_run(lst, ctl, procs)
        finally:
            ctl.close()


def client(host, rooms, msgs, port):
    ctl = socket.create_connection((host, port))
    ctl.sendall(struct.pack("<ii", rooms, msgs))
    conns = []
    for r in range(rooms):
        print("Creating room number %d ..." % (r + 1))
        for _ in range(USERS):
            conns.append(socket.create_connection((host, port)))
        print("%d connections so far." % len(conns))
    go = threading.Semaphore(0)
    received = [0] * len(conns)
    unit = bytes(UNIT)

    def sender(i):
        go.acquire()
        for _ in range(msgs):
            conns[i].sendall(unit)

    def receiver(i):
        go.acquire()
        for _ in range((USERS - 1) * msgs):
            if len(recv_exact(conns[i], UNIT)) != UNIT:
                break
            received[i] += 1

    threads = []
    for i in range(len(conns)):
        threads.append(threading.Thread(target=sender, args=(i,)))
        threads.append(threading.Thread(target=receiver, args=(i,)))
    for t in threads:
        t.start()
    # A plain read, as the original's: urgent data is skipped, not read.
    if ctl.recv(1) != READY:
        print("Error: the server did not say it was ready", file=sys.stderr)
        return 1
    print("Running the test ...")
    t0 = time.monotonic()
    go.release(len(threads))
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    for c in conns:
        c.close()
    ctl.sendall(DONE)
    ctl.close()
    sent = len(conns) * msgs
    recv = sum(received)
    print("Test complete.")
    print()
    print("Simulator version  : 1.0.1")
    print("Messages sent      : %d" % sent)
    print("Messages received  : %d" % recv)
    print("Total messages     : %d" % (sent + recv))
    print("Elapsed time       : %.3f seconds" % elapsed)
    print("Average throughput : %d messages per second"
          % ((sent + recv) / elapsed if elapsed > 0 else 0))
    return 0 if recv == (USERS - 1) * sent else 1


def main(argv):
    if len(argv) == 4 and argv[1] == "server":
        server(argv[2], int(argv[3]))
        return 0
    if len(argv) == 5 and argv[1] == "server" and argv[2] == "--procs":
        server(argv[3], int(argv[4]), procs=True)
        return 0
    if len(argv) == 6 and argv[1] == "client":
        return client(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    print("usage: orig.py server [--procs] HOST PORT\n"
          "       orig.py client HOST ROOMS MESSAGES PORT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
