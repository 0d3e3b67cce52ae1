#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The container image: built with podman from nothing but conclaved and
the libraries it loads (deploy/container), saved as an archive, its layers
unpacked, and its entrypoint run under chroot as the image's user (a
container cannot be started on every build machine); then a whole game is
played through it over TCP and the journal is in the volume."""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "integration"))
from harness import LIVENESS, Client, play_out  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("CONCLAVED_RELEASE", os.path.join(ROOT, "build", "server", "conclaved"))
STAGE = os.path.join(ROOT, "deploy", "container", "stage.sh")
CONTAINERFILE = os.path.join(ROOT, "deploy", "container", "Containerfile")


SKIP = 77  # meson's exit status for a skipped test


class CommandFailed(AssertionError):
    pass


def run(*args, **kw):
    """Runs a command; a failure says what ran and what it wrote."""
    try:
        return subprocess.run(args, check=True, capture_output=True, text=True, timeout=600, **kw)
    except subprocess.CalledProcessError as e:
        raise CommandFailed("%s exited with status %d:\n%s%s" % (
            " ".join(args), e.returncode, e.stderr[-4000:], e.stdout[-2000:])) from None


def cannot_build_images():
    """Why this machine cannot build an image at all, or None: the test
    needs root (podman build, chroot, mknod) and a podman that can build
    the simplest image there is. A podman that cannot (a chroot whose / is
    not a mount point: "remount /, flags: 0x44000: invalid argument") is
    this machine's limit, not a fault of the image."""
    if os.geteuid() != 0:
        return "the image test needs root (podman build, chroot, mknod); run make test as root"
    if not shutil.which("podman"):
        return "podman is not installed (make test-deps installs it)"
    probe = tempfile.mkdtemp(prefix="conclave-image-probe-")
    tag = "localhost/conclave-probe:%d" % os.getpid()
    try:
        with open(os.path.join(probe, "Containerfile"), "w") as f:
            f.write("FROM scratch\nCOPY probe /probe\n")
        with open(os.path.join(probe, "probe"), "w") as f:
            f.write("probe\n")
        try:
            run("podman", "build", "--quiet", "-t", tag, probe)
        except CommandFailed as e:
            return "podman cannot build even a one-file image here: %s" % e
        subprocess.run(["podman", "rmi", "-f", tag], capture_output=True, timeout=600)
        return None
    finally:
        shutil.rmtree(probe, ignore_errors=True)


class Image(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(BINARY):
            raise AssertionError("no %s: build it first (make build)" % BINARY)
        cls.work = tempfile.mkdtemp(prefix="conclave-image-")
        cls.tag = "localhost/conclave-test:%d" % os.getpid()
        ctx = os.path.join(cls.work, "context")
        run(STAGE, BINARY, ctx)
        run("podman", "build", "--quiet", "-t", cls.tag, "-f", CONTAINERFILE, ctx)
        archive = os.path.join(cls.work, "image.tar")
        run("podman", "save", "--format", "docker-archive", "-o", archive, cls.tag)
        run("podman", "rmi", cls.tag)
        cls.root = os.path.join(cls.work, "root")
        os.mkdir(cls.root)
        with tarfile.open(archive) as t:
            manifest = json.load(t.extractfile("manifest.json"))[0]
            cls.config = json.load(t.extractfile(manifest["Config"]))["config"]
            for layer in manifest["Layers"]:
                with tarfile.open(fileobj=t.extractfile(layer)) as lt:
                    lt.extractall(cls.root, numeric_owner=True)
        cls.files = []
        for d, _, names in os.walk(cls.root):
            cls.files += [os.path.relpath(os.path.join(d, n), cls.root) for n in names]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_image_holds_the_server_alone(self):
        self.assertEqual(self.config["User"], "10001:10001")
        self.assertIn("/data", self.config["Volumes"])
        self.assertEqual(self.config["Entrypoint"][:3], ["/usr/bin/conclaved", "--listen",
                                                           "0.0.0.0:7717"])
        self.assertIn("usr/bin/conclaved", self.files)
        self.assertNotIn("bin/sh", self.files)
        for f in self.files:
            self.assertRegex(f, r"^(usr/bin/conclaved|usr/lib/[^/]+/lib[^/]+\.so[.0-9]*|"
                                r"lib64/ld-linux[^/]*|etc/(passwd|group))$")
        self.assertEqual(os.stat(os.path.join(self.root, "data")).st_uid, 10001)

    def test_entrypoint_plays_a_game_under_chroot(self):
        # What a container runtime provides: device nodes.
        dev = os.path.join(self.root, "dev")
        os.makedirs(dev, exist_ok=True)
        for name, minor in (("null", 3), ("urandom", 9)):
            path = os.path.join(dev, name)
            if not os.path.exists(path):
                os.mknod(path, 0o666 | 0o020000, os.makedev(1, minor))
        user = self.config["User"]
        # The image's entrypoint, on loopback ports of our choosing (a later
        # option wins).
        args = ["chroot", "--userspec=" + user, self.root] + self.config["Entrypoint"] + \
            ["--listen", "127.0.0.1:0", "--http", "127.0.0.1:0"]
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            m = re.match(rb"listening on 127\.0\.0\.1:(\d+)", p.stdout.readline())
            self.assertTrue(m, p.stderr.read(2000) if p.poll() is not None else "no listening line")
            port = int(m.group(1))
            c = Client(port, "Ann")
            c.ok("create", game="sorcerers", seats=2, options={"bot_level": "easy"})
            c.ok("start", bots=True)
            c.pump(lambda x: x.view is not None, timeout=LIVENESS)
            play_out(self, c, random.Random(7))
            c.close()
            rooms = os.path.join(self.root, "data", "rooms")
            names = os.listdir(rooms)
            journals = [n for n in names if n.endswith(".journal")]
            self.assertEqual(len(journals), 1, names)
            # The room's journal and the write-ahead file both belong to
            # the user the server runs as.
            self.assertIn("journal.wal", names)
            for name in (journals[0], "journal.wal"):
                self.assertEqual(os.stat(os.path.join(rooms, name)).st_uid, 10001, name)
        finally:
            p.send_signal(signal.SIGTERM)
            rc = p.wait(LIVENESS)
            p.stdout.close()
            p.stderr.close()
        self.assertEqual(rc, 0)


if __name__ == "__main__":
    why = cannot_build_images()
    if why:
        print("SKIP: " + why)
        sys.exit(SKIP)
    unittest.main()
