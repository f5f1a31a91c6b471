#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Misbehaving peers of chat_s for concurrency.bats, bounded in count and
time, on loopback or a test namespace's address only.

  peers.py hold HOST PORT HALF IDLE READY SECONDS
      HALF connections that send 4 of the 8 bytes of a start message and
      stall, IDLE that send nothing; touches READY once all are open (or
      refused), then holds them for SECONDS.  Prints how many the server
      closed at once (refused) on stdout when it ends.
  peers.py flood HOST PORT COUNT
      COUNT connections opened and closed as fast as possible.
  peers.py deaf HOST PORT ROOMS MESSAGES READY SECONDS
      A client that starts a run, sends every message of every user and
      never reads what the server sends back; touches READY after 0x11.
"""
import os
import select
import socket
import struct
import sys
import time


def connect(host, port):
    s = socket.socket()
    s.settimeout(10)
    s.connect((host, port))
    return s


def touch(path):
    with open(path, "w"):
        pass


def hold(host, port, half, idle, ready, seconds):
    socks = []
    for _ in range(half):
        s = connect(host, port)
        s.send(b"\x01\x00\x00\x00")
        socks.append(s)
    for _ in range(idle):
        socks.append(connect(host, port))
    touch(ready)
    time.sleep(0.5)
    # A peer the server refused at once reads EOF (or a reset) now.
    refused = 0
    for s in socks:
        r, _, _ = select.select([s], [], [], 0)
        if r:
            try:
                gone = s.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                gone = True
            refused += gone
    print(refused, flush=True)
    time.sleep(seconds)


def flood(host, port, count, source="127.0.0.2"):
    # From another address than the real client's: the original protocol
    # names no data connection, so the server takes the silent connections
    # that follow a start message from its address as the run's, and one
    # that connects and closes in that window cannot be told apart.
    for _ in range(count):
        try:
            s = socket.socket()
            s.settimeout(10)
            s.bind((source, 0))
            s.connect((host, port))
            s.close()
        except OSError:
            pass


def deaf(host, port, rooms, messages, ready, seconds):
    ctl = connect(host, port)
    ctl.send(struct.pack("<ii", rooms, messages))
    users = [connect(host, port) for _ in range(rooms * 20)]
    if ctl.recv(1) != b"\x11":
        sys.exit("no 0x11")
    touch(ready)
    chunk = b"x" * 6400
    for u in users:
        u.setblocking(False)
    left = {u: messages * 100 for u in users}
    end = time.time() + seconds
    while left and time.time() < end:
        _, w, _ = select.select([], list(left), [], 0.2)
        for u in w:
            try:
                left[u] -= u.send(chunk[:min(len(chunk), left[u])])
            except OSError:
                left[u] = 0
            if left[u] <= 0:
                del left[u]
    time.sleep(max(0, end - time.time()))


def main():
    mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    args = sys.argv[4:]
    if mode == "hold":
        hold(host, port, int(args[0]), int(args[1]), args[2], float(args[3]))
    elif mode == "flood":
        flood(host, port, int(args[0]))
    elif mode == "deaf":
        deaf(host, port, int(args[0]), int(args[1]), args[2], float(args[3]))
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
