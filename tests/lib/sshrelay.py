"""sshrelay.py ADDR PORT PORTFILE DELAYFILE - a TCP relay for tests/lib/sshd.sh
(sshd_host --delayable, sshd_delay): listens on ADDR at a free port (written
to PORTFILE once it listens) and joins each connection to ADDR:PORT, holding
every chunk it reads DELAY ms before it sends it on, in each direction.
DELAY is read from DELAYFILE (whole milliseconds; absent or empty: 0) before
each send, so a test slows a link mid-connection by rewriting the file.
Stands in for `tc netem` (a delay filtered to one address), which the
kernel of the CI machines lacks (CONFIG_NET_SCH_NETEM is not set)."""
import collections
import os
import socket
import sys
import threading
import time


def delay_s(path):
    try:
        with open(path) as f:
            return int(f.read().strip() or 0) / 1000.0
    except (OSError, ValueError):
        return 0.0


def pump(src, dst, dfile):
    """Copies src to dst, each chunk sent DELAY after it was read."""
    q = collections.deque()
    cv = threading.Condition()

    def reader():
        while True:
            try:
                b = src.recv(65536)
            except OSError:
                b = b""
            with cv:
                q.append((time.monotonic(), b))
                cv.notify()
            if not b:
                return

    threading.Thread(target=reader, daemon=True).start()
    while True:
        with cv:
            while not q:
                cv.wait()
            t, b = q[0]
        wait = t + delay_s(dfile) - time.monotonic()
        if wait > 0:
            time.sleep(min(wait, 0.05))
            continue
        with cv:
            q.popleft()
        try:
            if not b:
                dst.shutdown(socket.SHUT_WR)
                return
            dst.sendall(b)
        except OSError:
            return


def serve(conn, addr, port, dfile):
    try:
        up = socket.create_connection((addr, port))
    except OSError:
        conn.close()
        return
    t = threading.Thread(target=pump, args=(up, conn, dfile), daemon=True)
    t.start()
    pump(conn, up, dfile)
    t.join()
    conn.close()
    up.close()


def main():
    addr, port, portfile, dfile = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    ls = socket.socket()
    ls.bind((addr, 0))
    ls.listen(64)
    with open(portfile + ".new", "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    os.rename(portfile + ".new", portfile)
    while True:
        conn, _ = ls.accept()
        threading.Thread(target=serve, args=(conn, addr, port, dfile), daemon=True).start()


if __name__ == "__main__":
    main()
