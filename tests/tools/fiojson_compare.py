#!/usr/bin/env python3
"""fiojson_compare.py FIO.json NVSCOPE.json - compares nvscope's JSON with
fio's, key by key: every key fio writes (top level, jobs[0] and below) must be
in nvscope's with the same JSON type (int, float, string, object, array).
Keys whose names are data (percentile values, json+ bins, disk names) are
compared by shape.  Then checks the keys fio-plot (louwrentius/fio-plot,
fiolib/jsonimport.py, jsonparsing_support.py) and fio's fio_jsonplus_clat2csv
read.  Prints each difference; exit 1 if any."""
import json
import sys

# objects whose keys are values, not names: compare the value types only
DATA_KEYED = {"percentile", "bins"}
# fio writes only the options given; nvscope writes the ones that apply
SKIP = {"job options", "global options"}

# paths fio-plot reads from a job (jsonparsing_support.get_json_mapping) and
# the file (jsonimport.validate_json_file / filter_json_files)
FIO_PLOT_JOB = [
    ("jobname", str), ("job options", dict), ("job options/rw", str),
    ("job options/iodepth", str), ("job options/numjobs", str), ("job options/bs", str),
    ("read/bw", int), ("read/iops", float), ("read/iops_stddev", float),
    ("read/lat_ns/mean", float), ("read/lat_ns/stddev", float),
    ("write/bw", int), ("write/iops", float), ("write/iops_stddev", float),
    ("write/lat_ns/mean", float), ("write/lat_ns/stddev", float),
    ("latency_ms", dict), ("latency_us", dict), ("latency_ns", dict),
    ("usr_cpu", float), ("sys_cpu", float),
]
FIO_PLOT_TOP = [("fio version", str), ("jobs", list)]


def tname(v):
    if isinstance(v, bool):
        return "bool"
    return {int: "int", float: "float", str: "str", dict: "object", list: "array"}.get(
        type(v), type(v).__name__)


def walk(ref, got, path, out):
    if tname(ref) != tname(got):
        out.append(f"{path}: fio {tname(ref)}, nvscope {tname(got)}")
        return
    if isinstance(ref, dict):
        leaf = path.rsplit("/", 1)[-1]
        if leaf in SKIP:
            return
        if leaf in DATA_KEYED:
            types = {tname(v) for v in ref.values()} | {tname(v) for v in got.values()}
            if len(types) > 1:
                out.append(f"{path}: value types {sorted(types)}")
            for k in list(ref) + list(got):
                try:
                    float(k)
                except ValueError:
                    out.append(f"{path}: key '{k}' is not a number")
            return
        for k, v in ref.items():
            if k not in got:
                out.append(f"{path}/{k}: missing")
            else:
                walk(v, got[k], f"{path}/{k}", out)
    elif isinstance(ref, list) and ref and got:
        walk(ref[0], got[0], path + "[0]", out)


def get(obj, path):
    for part in path.split("/"):
        obj = obj[part]
    return obj


def main():
    fio = json.load(open(sys.argv[1]))
    nvs = json.load(open(sys.argv[2]))
    out = []
    for k, v in fio.items():
        if k in SKIP:
            continue
        if k not in nvs:
            out.append(f"/{k}: missing")
        elif k == "jobs":
            for i, job in enumerate(nvs["jobs"]):
                walk(v[0], job, f"/jobs[{i}]", out)
        else:
            walk(v, nvs[k], "/" + k, out)
    for path, typ in FIO_PLOT_TOP:
        if not isinstance(nvs.get(path), typ):
            out.append(f"fio-plot: /{path} missing or not {typ.__name__}")
    for i, job in enumerate(nvs["jobs"]):
        for path, typ in FIO_PLOT_JOB:
            try:
                v = get(job, path)
            except (KeyError, TypeError):
                out.append(f"fio-plot: jobs[{i}]/{path} missing")
                continue
            if tname(v) != tname(typ()):
                out.append(f"fio-plot: jobs[{i}]/{path} is {tname(v)}, not {tname(typ())}")
        try:
            int(job["job options"]["iodepth"]), int(job["job options"]["numjobs"])
        except (KeyError, ValueError):
            out.append(f"fio-plot: jobs[{i}] iodepth/numjobs not integers")
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
