#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Kubernetes manifests of deploy/kubernetes/ against the schemas
vendored in deploy/kubernetes/schemas/ (see SOURCE.md there): every
document of every *.yaml by its apiVersion and kind, and the allocator
request example against the allocator's REST API. A manifest of a kind
without a vendored schema is an error. With --self-test, known-bad copies
of the manifests must be refused (so the check cannot pass by accident).

usage: check_manifests.py ROOT [--self-test]"""
import copy
import glob
import json
import os
import sys

try:
    import jsonschema
    import yaml
except ImportError:  # an interpreter of its own (pyenv, venv): Debian's packages
    sys.path.append("/usr/lib/python3/dist-packages")
    import jsonschema
    import yaml

SCHEMAS = {
    ("v1", "Service"): "kubernetes-1.34/service-v1.json",
    ("agones.dev/v1", "Fleet"): "agones-1.56.0/fleet.agones.dev-v1.json",
    ("autoscaling.agones.dev/v1", "FleetAutoscaler"):
        "agones-1.56.0/fleetautoscaler.autoscaling.agones.dev-v1.json",
}
ALLOCATION = "agones-1.56.0/allocation.swagger.json"


def as_the_api_server_reads(schema):
    """Kubernetes' own definitions (an OpenAPI v2 subset) as the API server
    applies them: an int-or-string field takes either, and an object takes
    no member it does not define (strict field validation)."""
    defs = schema.get("definitions", {})
    for name, d in defs.items():
        if d.get("format") == "int-or-string":
            defs[name] = {"oneOf": [{"type": "integer"}, {"type": "string"}]}
        elif name.startswith("io.k8s.") and d.get("type") == "object" and "properties" in d:
            d.setdefault("additionalProperties", False)
    return schema


def errors_of(doc, schema):
    v = jsonschema.Draft7Validator(schema)
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
            for e in v.iter_errors(doc)]


def check(root, docs=None, request=None):
    """Problems found, in words. docs: [(file, document)] or the manifests."""
    sdir = os.path.join(root, "deploy", "kubernetes", "schemas")
    problems = []
    if docs is None:
        docs = []
        for path in sorted(glob.glob(os.path.join(root, "deploy", "kubernetes", "*.yaml"))):
            with open(path) as f:
                docs += [(os.path.basename(path), d) for d in yaml.safe_load_all(f) if d]
    if not docs:
        problems.append("no manifests in deploy/kubernetes")
    for name, d in docs:
        key = (d.get("apiVersion"), d.get("kind"))
        if key not in SCHEMAS:
            problems.append("%s: no vendored schema for %s %s" % (name, key[0], key[1]))
            continue
        with open(os.path.join(sdir, SCHEMAS[key])) as f:
            schema = as_the_api_server_reads(json.load(f))
        problems += ["%s (%s): %s" % (name, key[1], e) for e in errors_of(d, schema)]
        if not d.get("metadata", {}).get("name"):
            problems.append("%s (%s): no metadata.name" % (name, key[1]))
    with open(os.path.join(sdir, ALLOCATION)) as f:
        swagger = json.load(f)
    if request is None:
        with open(os.path.join(root, "deploy", "kubernetes", "allocate-by-code.json")) as f:
            request = json.load(f)
    schema = {"$ref": "#/definitions/allocationAllocationRequest",
              "definitions": swagger["definitions"]}
    # The allocator's REST gateway accepts no member it does not define.
    for d in swagger["definitions"].values():
        if d.get("type") == "object" and "properties" in d:
            d.setdefault("additionalProperties", False)
    problems += ["allocate-by-code.json: %s" % e for e in errors_of(request, schema)]
    return problems


def self_test(root):
    """Each planted fault must be reported."""
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "deploy", "kubernetes", "*.yaml"))):
        with open(path) as f:
            docs += [(os.path.basename(path), d) for d in yaml.safe_load_all(f) if d]
    with open(os.path.join(root, "deploy", "kubernetes", "allocate-by-code.json")) as f:
        request = json.load(f)

    def fleet(ds):
        return next(d for _, d in ds if d["kind"] == "Fleet")

    def scaler(ds):
        return next(d for _, d in ds if d["kind"] == "FleetAutoscaler")

    def service(ds):
        return next(d for _, d in ds if d["kind"] == "Service")

    plants = {
        "replicas as a string": lambda ds, r: fleet(ds)["spec"].__setitem__("replicas", "two"),
        "a List over its maximum capacity":
            lambda ds, r: fleet(ds)["spec"]["template"]["spec"]["lists"]["rooms"]
            .__setitem__("capacity", 5000),
        "a port policy Agones does not have":
            lambda ds, r: fleet(ds)["spec"]["template"]["spec"]["ports"][0]
            .__setitem__("portPolicy", "Sometimes"),
        "a Counter policy without maxCapacity":
            lambda ds, r: scaler(ds)["spec"]["policy"]["counter"].pop("maxCapacity"),
        "an unknown kind": lambda ds, r: ds.append(("x.yaml", {"apiVersion": "v1",
                                                               "kind": "ConfigMap"})),
        "a Service port as a word": lambda ds, r: service(ds)["spec"]["ports"][0]
            .__setitem__("port", "seven"),
        "a Service member Kubernetes does not define":
            lambda ds, r: service(ds)["spec"].__setitem__("selectr", {"app": "conclave"}),
        "a list selector with a misspelt member":
            lambda ds, r: r["gameServerSelectors"][0]["lists"]["rooms"]
            .__setitem__("contains", "K7QF2M"),
    }
    failed = []
    for what, plant in plants.items():
        ds, r = copy.deepcopy(docs), copy.deepcopy(request)
        plant(ds, r)
        if not check(root, ds, r):
            failed.append(what)
    return failed


def main():
    root = sys.argv[1]
    problems = check(root)
    for p in problems:
        print("check_manifests:", p)
    if "--self-test" in sys.argv:
        missed = self_test(root)
        for m in missed:
            print("check_manifests: a planted fault was not reported:", m)
        problems += missed
    if not problems:
        print("check_manifests: deploy/kubernetes holds to the vendored schemas")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
