# SPDX-License-Identifier: MIT
"""The terminal client's card-text generators (client-cli/render/gen_*.py)
as modules, for the browser's generators beside this file: their words in
English and Chinese, so that both clients say the same thing about every
card. Their main() is not run, and no bytecode cache is written into the
source tree."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    """client-cli/render/NAME as a module; stops the generator if it is
    missing."""
    path = os.path.join(HERE, "..", "..", "client-cli", "render", name)
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("cli_" + name[:-3], path)
    if spec is None or not os.path.exists(path):
        raise SystemExit("%s: %s not found" % (os.path.basename(sys.argv[0]), path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
