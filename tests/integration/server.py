"""Starting the real `contrast serve` on 127.0.0.1 with a free port, for the tests."""
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request


class Server:
    def __init__(self, binary, palettes, *args, env=None, open_files=None):
        """`open_files`: the server's soft and hard RLIMIT_NOFILE, as a systemd unit or a
        container would set them."""
        self.log_path = os.path.join(palettes, "..", "server.log")
        self.log = open(self.log_path, "w")
        environment = dict(os.environ)
        environment.update(env or {})
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--palettes", palettes, *args],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=environment,
            preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, open_files)) if open_files else None)
        self.banner = ""
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.banner += line
            match = re.search(r"listening on (https?)://127\.0\.0\.1:(\d+)", line)
            if match:
                self.scheme, self.port = match.group(1), int(match.group(2))
                self.base = f"{self.scheme}://127.0.0.1:{self.port}"
            if line.startswith("stop with") and hasattr(self, "base"):
                return
        self.stop()
        raise RuntimeError(f"server did not start: {self.banner} {self.logs()}")

    def logs(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    def request(self, method, path, body=None, headers=None, timeout=30):
        data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
        hdrs = dict(headers or {})
        if body is not None and "Content-Type" not in hdrs:
            hdrs["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, method, path, body=None, **kwargs):
        status, headers, raw = self.request(method, path, body, **kwargs)
        return status, headers, json.loads(raw) if raw else None

    def raw(self, data, timeout=10):
        """Sends bytes on a fresh connection and returns everything the server answered."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(data)
            chunks = []
            while True:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    break
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and _complete(b"".join(chunks)):
                    break
            return b"".join(chunks)

    def signal(self, sig):
        self.process.send_signal(sig)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode


def _complete(data):
    head, _, body = data.partition(b"\r\n\r\n")
    match = re.search(rb"content-length:\s*(\d+)", head, re.I)
    return match is not None and len(body) >= int(match.group(1))


def status_of(raw):
    match = re.match(rb"HTTP/1\.[01] (\d{3})", raw)
    return int(match.group(1)) if match else None


def quiet_server_over_palettes(binary, tmp_path_factory, name, root):
    """The real server on its defaults over a copy of palettes/ (`root` is the repository),
    quiet: what the hostile suites post their bodies to. A generator for a module fixture: it
    must stop cleanly."""
    directory = tmp_path_factory.mktemp(name) / "palettes"
    shutil.copytree(root / "palettes", directory)
    s = Server(binary, str(directory), "--quiet")
    yield s
    assert s.stop() == 0, s.logs()[-2000:]
