#!/usr/bin/python3
# stallfs.py MOUNTPOINT SIZE FLAGFILE - a FUSE file system holding one file,
# "disk", of SIZE bytes (kept in memory, sparse).  While FLAGFILE exists every
# read and write waits until it is removed: a loop device over "disk" is a
# block device that stalls, for tests of how nvscope ends a run on a device
# that does not answer (tests/integration/stall.sh).  Needs Debian's
# python3-fusepy (libfuse2); run it with Debian's /usr/bin/python3.
import errno, os, stat, sys, threading, time
from fusepy import FUSE, FuseOSError, Operations

class Stall(Operations):
    def __init__(self, size, flag):
        self.size, self.flag, self.blocks = size, flag, {}
        self.lock = threading.Lock()

    def _wait(self):
        while os.path.exists(self.flag):
            time.sleep(0.05)

    def getattr(self, path, fh=None):
        now = time.time()
        if path == "/":
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2, st_ctime=now, st_mtime=now, st_atime=now)
        if path == "/disk":
            return dict(st_mode=stat.S_IFREG | 0o600, st_nlink=1, st_size=self.size, st_ctime=now, st_mtime=now, st_atime=now)
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", "disk"]

    def open(self, path, flags):
        if path != "/disk":
            raise FuseOSError(errno.ENOENT)
        return 0

    def truncate(self, path, length, fh=None):
        return 0

    def read(self, path, size, offset, fh):
        self._wait()
        out = bytearray()
        with self.lock:
            while size > 0 and offset < self.size:
                b, o = divmod(offset, 4096)
                n = min(size, 4096 - o)
                blk = self.blocks.get(b)
                out += blk[o:o + n] if blk else bytes(n)
                offset += n
                size -= n
        return bytes(out)

    def write(self, path, data, offset, fh):
        self._wait()
        with self.lock:
            pos = 0
            while pos < len(data):
                b, o = divmod(offset + pos, 4096)
                n = min(len(data) - pos, 4096 - o)
                blk = self.blocks.setdefault(b, bytearray(4096))
                blk[o:o + n] = data[pos:pos + n]
                pos += n
        return len(data)

if __name__ == "__main__":
    FUSE(Stall(int(sys.argv[2]), sys.argv[3]), sys.argv[1], foreground=True, direct_io=True,
         allow_other=True)
