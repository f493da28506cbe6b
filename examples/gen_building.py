#!/usr/bin/env python3
"""Generate examples/building.json: a sample 4-storey building schedule.

Standard library only. Run from anywhere:

    python3 examples/gen_building.py

The script builds the activity network, checks it (acyclic, every activity
connected, naming rules, all relationship types used, ...), writes the JSON
file next to itself and prints counts plus the CPM project duration computed
with the reference semantics:

    day 0 is project start; activities do not stretch; EF = ES + d;
    ES = max(0, over predecessor links:
             FS: EF_p + lag, SS: ES_p + lag, FF: EF_p + lag - d, SF: ES_p + lag - d)
    T = max EF
    durations: plain numbers as given; triangular/pert use the mode,
    uniform/normal use the mean.
"""

import json
import os
import re
from collections import Counter, defaultdict, deque

LEVELS = [1, 2, 3, 4]

HOLIDAYS = [
    "2026-04-03",  # Good Friday
    "2026-04-06",  # Easter Monday
    "2026-05-04",  # Early May bank holiday
    "2026-05-25",  # Spring bank holiday
    "2026-08-31",  # Summer bank holiday
    "2026-12-24",  # Christmas shutdown
    "2026-12-25",
    "2026-12-28",
    "2026-12-29",
    "2026-12-30",
    "2026-12-31",
    "2027-01-01",
]

activities = []   # list of dicts in output order
key_to_id = {}    # internal key -> activity id
relationships = []


def act(key, name, description, duration):
    """Add an activity. duration is a string (working days or a distribution)."""
    assert key not in key_to_id, "duplicate key %s" % key
    aid = "A%03d" % (len(activities) + 1)
    key_to_id[key] = aid
    activities.append({
        "id": aid,
        "name": name,
        "description": description,
        "duration": duration,
    })
    return aid


def rel(pred, succ, typ="FS", lag=0):
    """Add a relationship between two activity keys."""
    assert typ in ("FS", "SS", "FF", "SF")
    assert isinstance(lag, int)
    rid = "R%03d" % (len(relationships) + 1)
    relationships.append({
        "id": rid,
        "type": typ,
        "predecessor": key_to_id[pred],
        "successor": key_to_id[succ],
        "lag": lag,
    })
    return rid


# ---------------------------------------------------------------------------
# Site set-up, excavation and foundations
# ---------------------------------------------------------------------------

act("ntp", "Notice to proceed",
    "Contractual notice to proceed issued for the site, marking the start of the works.", "0")
act("mob", "Mobilisation",
    "Site mobilisation by the main contractor: plant delivery, site induction and establishment of the site compound.", "5")
act("hoard", "Site hoarding",
    "Perimeter hoarding and gates erected around the site by the main contractor's temporary works crew.", "4")
act("offices", "Site offices and welfare set-up",
    "Temporary site offices, welfare cabins and stores installed on site by the main contractor.", "3")
act("tpower", "Temporary power connection",
    "Temporary builder's power supply and distribution boards connected on site by the electrical subcontractor.", "2")
act("twater", "Temporary water connection",
    "Temporary water supply and standpipes connected on site by the plumbing subcontractor.", "1.5")
act("survey", "Setting-out survey",
    "Setting-out survey of gridlines, levels and benchmarks on site by the site engineer.", "2.5")
act("excav", "Bulk excavation",
    "Bulk excavation and cart-away of spoil on site by the groundworks subcontractor.", "triangular(8,10,15)")
act("piling", "Piling",
    "Bored piling for the building foundations on site by the piling subcontractor.", "pert(10,12,18)")
act("pilecaps", "Pile caps and ground beams",
    "Pile caps and ground beams formed, reinforced and poured on site by the concrete subcontractor.", "8")
act("drainage", "Underground drainage",
    "Below-ground drainage runs, manholes and connections laid on site by the groundworks subcontractor.", "uniform(4,6)")
act("subbase", "Ground slab sub-base and membrane",
    "Ground slab sub-base compaction, insulation and damp-proof membrane laid on site by the groundworks subcontractor.", "3")
act("tcrane", "Tower crane erection",
    "Tower crane base, erection and load testing on site by the crane hire contractor.", "4")

rel("ntp", "mob")
rel("mob", "hoard", "SS", 2)
rel("mob", "offices", "SS", 1)
rel("offices", "tpower")
rel("offices", "twater")
rel("mob", "survey")
rel("survey", "excav")
rel("hoard", "excav")
rel("tpower", "excav")
rel("excav", "piling", "SS", 4)     # ladder: piling follows excavation
rel("excav", "piling", "FF", 3)
rel("twater", "piling")
rel("piling", "pilecaps")
rel("pilecaps", "drainage", "SS", 3)
rel("pilecaps", "subbase")
rel("drainage", "subbase")
rel("piling", "tcrane", "FS", -2)   # crane base cast as the last piles go in

# ---------------------------------------------------------------------------
# Per-level work
# ---------------------------------------------------------------------------

def level_activities(n):
    L = "Level %d" % n
    k = lambda s: "%s%d" % (s, n)
    # Structure
    if n == 1:
        act(k("slabform"), "Slab edge formwork %s" % L,
            "Edge formwork for the ground-bearing slab on %s erected by the formwork subcontractor." % L, "3")
    else:
        act(k("slabform"), "Slab formwork %s" % L,
            "Suspended slab formwork and falsework on %s erected by the formwork subcontractor." % L, "5")
    act(k("slabreo"), "Slab reinforcement %s" % L,
        "Slab reinforcement and cast-in items on %s fixed by the steel fixing subcontractor." % L, "4")
    act(k("pourslab"), "Pour slab %s" % L,
        "Concrete pour and curing of the slab on %s by the concrete subcontractor." % L, "1")
    act(k("colform"), "Column and wall formwork %s" % L,
        "Column and core wall formwork on %s erected by the formwork subcontractor." % L, "3")
    act(k("colreo"), "Column and wall reinforcement %s" % L,
        "Column and core wall reinforcement on %s fixed by the steel fixing subcontractor." % L, "3")
    act(k("pourcol"), "Pour columns and walls %s" % L,
        "Concrete pour of columns and core walls on %s by the concrete subcontractor." % L, "1.5")
    act(k("strip"), "Strip formwork and backprop %s" % L,
        "Structural formwork stripped and backprops installed on %s by the formwork subcontractor." % L, "2")
    # Envelope
    act(k("facade"), "Facade and curtain wall %s" % L,
        "Facade panels and curtain wall units on %s installed by the facade subcontractor." % L, "8")
    act(k("windows"), "Window installation %s" % L,
        "Window frames and glazing on %s installed by the facade subcontractor." % L, "5")
    act(k("waterproof"), "External waterproofing %s" % L,
        "External waterproofing, flashings and sealants on %s applied by the waterproofing subcontractor." % L, "3")
    # MEP rough-in
    act(k("elec"), "Electrical rough-in %s" % L,
        "Electrical rough-in on %s: conduit, cable trays and first-fix wiring by the electrical subcontractor." % L, "6")
    act(k("plumb"), "Plumbing rough-in %s" % L,
        "Plumbing rough-in on %s: water supply, waste and vent pipework by the plumbing subcontractor." % L, "5")
    act(k("hvac"), "HVAC ductwork %s" % L,
        "HVAC ductwork and refrigerant pipework on %s installed by the mechanical subcontractor." % L, "7")
    act(k("sprink"), "Fire sprinkler pipework %s" % L,
        "Fire sprinkler mains and branch pipework on %s installed by the fire protection subcontractor." % L, "4")
    act(k("mepinsp"), "MEP rough-in inspection %s" % L,
        "Inspection and sign-off of all MEP rough-in on %s by the services consultant before close-up." % L, "1")
    # Drywall
    act(k("dwframe"), "Drywall framing %s" % L,
        "Metal stud framing for partitions on %s erected by the drywall subcontractor." % L, "5")
    act(k("dwboard"), "Drywall board %s" % L,
        "Plasterboard lining of partitions and bulkheads on %s fixed by the drywall subcontractor." % L, "6")
    act(k("dwtape"), "Drywall taping %s" % L,
        "Taping, jointing and sanding of plasterboard on %s by the drywall subcontractor." % L, "4")
    # Fit-out
    act(k("ceiling"), "Suspended ceilings %s" % L,
        "Suspended ceiling grid and tiles on %s installed by the ceilings subcontractor." % L, "5")
    act(k("joinery"), "Joinery %s" % L,
        "Built-in joinery, vanities and kitchenettes on %s installed by the joinery subcontractor." % L, "6")
    act(k("doors"), "Doors and frames %s" % L,
        "Door frames, door leaves and ironmongery on %s hung by the joinery subcontractor." % L, "3.5")
    # Finishes
    act(k("paint"), "Painting %s" % L,
        "Painting of walls, ceilings and doors on %s by the painting subcontractor." % L, "6")
    act(k("tiling"), "Tiling %s" % L,
        "Wall and floor tiling of wet areas on %s by the tiling subcontractor." % L, "5")
    act(k("flooring"), "Flooring %s" % L,
        "Carpet and vinyl floor finishes on %s laid by the flooring subcontractor." % L, "4")
    act(k("fixtures"), "Final fixtures %s" % L,
        "Final fixtures on %s: light fittings, power outlets and sanitaryware fitted by the electrical and plumbing subcontractors." % L, "3")


def level_logic(n):
    k = lambda s: "%s%d" % (s, n)
    p = lambda s: "%s%d" % (s, n - 1)   # same activity on the level below
    # --- Structure
    if n == 1:
        rel("subbase", k("slabform"))
        rel("tcrane", k("slabform"))
    else:
        rel(p("pourcol"), k("slabform"), "FS", 1)   # slab sits on the columns below
    rel(k("slabform"), k("slabreo"), "SS", 2)       # ladder pair
    rel(k("slabform"), k("slabreo"), "FF", 1)
    rel(k("slabreo"), k("pourslab"))
    rel(k("pourslab"), k("colform"), "FS", 2)       # curing before loading
    rel(k("colform"), k("colreo"), "SS", 1)         # ladder pair
    rel(k("colform"), k("colreo"), "FF", 1)
    rel(k("colreo"), k("pourcol"))
    rel(k("pourcol"), k("strip"), "FS", 3)
    if n > 1:
        rel(k("pourslab"), k("strip"), "FS", 7)     # slab soffit stripped after curing
    # --- Envelope
    rel(k("strip"), k("facade"))
    if n < 4:
        rel("pourslab%d" % (n + 1), k("facade"))    # needs the slab edge above
    else:
        rel("pourroof", k("facade"))
    if n > 1:
        rel(p("facade"), k("facade"), "SS", 5)      # facade crew moves up
    rel(k("facade"), k("windows"), "SS", 3)         # ladder pair
    rel(k("facade"), k("windows"), "FF", 2)
    rel(k("windows"), k("waterproof"), "FS", -2)    # lead: sealants start before glazing finishes
    # --- MEP rough-in
    rel(k("strip"), k("elec"))
    if n > 1:
        rel(p("elec"), k("elec"), "SS", 5)
    rel(k("elec"), k("plumb"), "SS", 3)
    rel(k("elec"), k("hvac"), "SS", 2)
    rel(k("hvac"), k("sprink"), "SS", 3)            # ladder pair
    rel(k("hvac"), k("sprink"), "FF", 2)
    for t in ("elec", "plumb", "hvac", "sprink"):
        rel(k(t), k("mepinsp"))
    # --- Drywall
    rel(k("plumb"), k("dwframe"), "SS", 4)
    rel(k("windows"), k("dwframe"))
    rel(k("dwframe"), k("dwboard"), "SS", 3)
    rel(k("mepinsp"), k("dwboard"))
    rel(k("dwboard"), k("dwtape"), "SS", 2)         # ladder pair
    rel(k("dwboard"), k("dwtape"), "FF", 2)         # taping finishes 2 days after board
    # --- Fit-out
    rel(k("dwtape"), k("ceiling"))
    rel(k("dwtape"), k("joinery"), "FS", -2)        # lead: joinery starts in taped rooms
    rel(k("joinery"), k("doors"), "SS", 2)
    rel(k("joinery"), k("doors"), "FF", 1)
    # --- Finishes
    rel(k("ceiling"), k("paint"))
    rel(k("doors"), k("paint"))
    if n > 1:
        rel(p("paint"), k("paint"), "SS", 5)
    rel(k("joinery"), k("tiling"))
    rel(k("paint"), k("flooring"))
    rel(k("flooring"), k("fixtures"))
    rel(k("tiling"), k("fixtures"))


for n in LEVELS:
    level_activities(n)

# ---------------------------------------------------------------------------
# Roof, lift, services connections, external works
# ---------------------------------------------------------------------------

act("roofform", "Roof slab formwork",
    "Roof slab formwork and falsework on the roof erected by the formwork subcontractor.", "5")
act("roofreo", "Roof slab reinforcement",
    "Roof slab reinforcement and upstands on the roof fixed by the steel fixing subcontractor.", "4")
act("pourroof", "Pour roof slab",
    "Concrete pour and curing of the roof slab by the concrete subcontractor.", "1.5")
act("topout", "Structure topped out",
    "Milestone on the roof: the concrete structure of the building is complete.", "0")
act("roofmembrane", "Roofing membrane",
    "Roof insulation and waterproofing membrane on the roof laid by the roofing subcontractor.", "uniform(4,6)")
act("parapet", "Roof parapets and flashings",
    "Roof parapet cappings and flashings on the roof installed by the roofing subcontractor.", "3")
act("rooftop", "Rooftop plant installation",
    "Rooftop chillers, air handling units and exhaust fans on the roof installed by the mechanical subcontractor.", "6")
act("watertight", "Building watertight",
    "Milestone for the building envelope: facade, windows and roof are weathertight.", "0")
act("liftsurvey", "Lift shaft survey",
    "Survey of the lift shaft on site for plumb and dimensions by the lift subcontractor.", "1")
act("liftrails", "Lift guide rails and machine",
    "Lift guide rails, machine and controller on site installed by the lift subcontractor.", "triangular(8,10,14)")
act("liftcar", "Lift car and landing doors",
    "Lift car and landing doors on site installed by the lift subcontractor.", "6")
act("switchboard", "Main switchboard installation",
    "Main switchboard and sub-mains on site installed by the electrical subcontractor.", "5")
act("ppower", "Permanent power energised",
    "Milestone on site: utility supply connected and the permanent power switched on by the electrical subcontractor.", "0")
act("tpowerdecom", "Temporary power decommission",
    "Decommissioning and removal of the temporary builder's power on site by the electrical subcontractor.", "2")
act("pwater", "Permanent water connection",
    "Permanent mains water connection and meter on site installed by the plumbing subcontractor.", "2")
act("twaterdecom", "Temporary water disconnection",
    "Disconnection and removal of the temporary water standpipes on site by the plumbing subcontractor.", "1")
act("paving", "External paving and car park",
    "External paving, kerbs and car park surfacing on site by the civil works subcontractor.", "8")
act("landscape", "Landscaping",
    "Soft landscaping and planting on site by the landscaping subcontractor.", "5")
act("hoardremove", "Hoarding removal",
    "Removal of the perimeter site hoarding on site by the main contractor.", "2")

# Roof after Level 4 structure
rel("pourcol4", "roofform", "FS", 1)
rel("roofform", "roofreo", "SS", 2)
rel("roofform", "roofreo", "FF", 1)
rel("roofreo", "pourroof")
rel("pourroof", "topout")
rel("pourroof", "roofmembrane", "FS", 7)
rel("roofmembrane", "parapet", "SS", 2)
rel("roofmembrane", "rooftop")
rel("roofmembrane", "watertight")
rel("parapet", "watertight")
for n in LEVELS:
    rel("waterproof%d" % n, "watertight")
# Lift
rel("topout", "liftsurvey")
rel("liftsurvey", "liftrails")
rel("liftrails", "liftcar")
# Permanent services
rel("elec1", "switchboard")
rel("switchboard", "ppower")
rel("ppower", "tpowerdecom", "SF", 2)    # temporary power stays until 2 days after energising
rel("tpower", "tpowerdecom")
rel("plumb1", "pwater")
rel("pwater", "twaterdecom", "SF", 1)
rel("twater", "twaterdecom")
# External works
rel("watertight", "paving")
rel("paving", "landscape", "SS", 3)
rel("paving", "landscape", "FF", 2)

for n in LEVELS:
    level_logic(n)

# ---------------------------------------------------------------------------
# Commissioning and handover
# ---------------------------------------------------------------------------

act("electest", "Electrical testing and commissioning",
    "Electrical testing and commissioning of all distribution across the site by the electrical subcontractor.", "5")
act("plumbtest", "Plumbing pressure testing",
    "Pressure testing and flushing of all plumbing across the site by the plumbing subcontractor.", "3")
act("hvactest", "HVAC testing and balancing",
    "HVAC testing, air balancing and plant commissioning across the site by the mechanical subcontractor.", "normal(5,1)")
act("sprinktest", "Fire sprinkler testing",
    "Hydrostatic testing and flow test of the fire sprinklers across the site by the fire protection subcontractor.", "2")
act("firealarm", "Fire alarm test",
    "Cause-and-effect test of the fire alarm system across the site by the fire protection subcontractor.", "1.5")
act("bms", "BMS commissioning",
    "Building management system commissioning and point-to-point checks across the site by the controls subcontractor.", "4")
act("lifttest", "Lift testing and adjusting",
    "Lift testing, adjusting and load tests on site by the lift subcontractor.", "3")
act("liftcert", "Lift certification",
    "Independent lift inspection and certification on site by the notified body.", "1")
act("snagging", "Snagging inspection",
    "Snagging inspection of all areas across the site by the main contractor and architect.", "5")
act("defects", "Defect rectification",
    "Rectification of snagging defects across the site by all trade subcontractors.", "pert(4,6,10)")
act("cleaning", "Final cleaning",
    "Builder's final clean of all areas across the site by the cleaning subcontractor.", "4")
act("officesdemob", "Site offices demobilisation",
    "Removal of the site offices and welfare cabins from site by the main contractor.", "3")
act("finalinsp", "Final inspection",
    "Final inspection of the building on site by the building control authority.", "1")
act("substantial", "Substantial completion",
    "Milestone on site: the works are substantially complete and ready for occupation.", "0")
act("handover", "Handover",
    "Milestone on site: the building is handed over to the client.", "0")

for n in LEVELS:
    rel("fixtures%d" % n, "electest")
    rel("fixtures%d" % n, "plumbtest")
    rel("fixtures%d" % n, "hvactest")
    rel("ceiling%d" % n, "sprinktest")
rel("ppower", "electest")
rel("pwater", "plumbtest")
rel("ppower", "hvactest")
rel("rooftop", "hvactest")
rel("electest", "firealarm")
rel("sprinktest", "firealarm")
rel("hvactest", "bms", "SS", 3)
rel("hvactest", "bms", "FF", 2)
rel("liftcar", "lifttest")
rel("ppower", "lifttest")
rel("lifttest", "liftcert")
for t in ("electest", "plumbtest", "hvactest", "sprinktest", "firealarm", "bms", "liftcert"):
    rel(t, "snagging")
rel("snagging", "defects", "SS", 2)
rel("snagging", "defects", "FF", 3)
rel("defects", "cleaning")
rel("cleaning", "officesdemob", "SF", 0)  # offices stay open until final clean starts
rel("offices", "officesdemob")
rel("cleaning", "finalinsp", "FS", -1)
rel("firealarm", "finalinsp")
rel("liftcert", "finalinsp")
rel("landscape", "hoardremove")
rel("finalinsp", "substantial")
rel("hoardremove", "substantial")
rel("tpowerdecom", "substantial")
rel("twaterdecom", "substantial")
rel("substantial", "handover", "FS", 5)
rel("officesdemob", "handover")

# ---------------------------------------------------------------------------
# Durations and CPM
# ---------------------------------------------------------------------------

_NUM = r"\s*(-?\d+(?:\.\d+)?)\s*"
_DIST = re.compile(r"^\s*(triangular|pert|uniform|normal)\s*\((.*)\)\s*$")


def parse_duration(s):
    """Return the deterministic duration used for CPM; validates distributions."""
    m = _DIST.match(s)
    if not m:
        assert re.fullmatch(_NUM, s), "bad duration %r" % s
        v = float(s)
        assert v >= 0
        return v
    kind, args = m.group(1), [float(x) for x in m.group(2).split(",")]
    if kind in ("triangular", "pert"):
        a, mode, b = args
        assert 0 <= a <= mode <= b, s
        return mode
    if kind == "uniform":
        a, b = args
        assert 0 <= a <= b, s
        return (a + b) / 2.0
    mu, sigma = args
    assert mu >= 0 and sigma >= 0, s
    return mu


def topo_order(ids, rels):
    succ = defaultdict(list)
    indeg = {i: 0 for i in ids}
    for r in rels:
        succ[r["predecessor"]].append(r)
        indeg[r["successor"]] += 1
    q = deque(i for i in ids if indeg[i] == 0)
    order = []
    while q:
        i = q.popleft()
        order.append(i)
        for r in succ[i]:
            indeg[r["successor"]] -= 1
            if indeg[r["successor"]] == 0:
                q.append(r["successor"])
    return order


def cpm(acts, rels):
    dur = {a["id"]: parse_duration(a["duration"]) for a in acts}
    preds = defaultdict(list)
    for r in rels:
        preds[r["successor"]].append(r)
    es, ef = {}, {}
    for i in topo_order([a["id"] for a in acts], rels):
        d = dur[i]
        s = 0.0
        for r in preds[i]:
            p, lag = r["predecessor"], r["lag"]
            t = r["type"]
            if t == "FS":
                c = ef[p] + lag
            elif t == "SS":
                c = es[p] + lag
            elif t == "FF":
                c = ef[p] + lag - d
            else:  # SF
                c = es[p] + lag - d
            s = max(s, c)
        es[i], ef[i] = s, s + d
    return max(ef.values())


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------

def check(doc):
    acts, rels = doc["activities"], doc["relationships"]
    assert list(doc) == ["name", "start_date", "calendar", "activities", "relationships"]
    ids = [a["id"] for a in acts]
    assert len(ids) == len(set(ids)), "duplicate activity ids"
    assert all(re.fullmatch(r"A\d{3}", i) for i in ids)
    rids = [r["id"] for r in rels]
    assert len(rids) == len(set(rids)), "duplicate relationship ids"
    assert all(re.fullmatch(r"R\d{3}", i) for i in rids)
    assert len(acts) >= 130, len(acts)
    idset = set(ids)
    triples = set()
    for a in acts:
        assert set(a) == {"id", "name", "description", "duration"}
        parse_duration(a["duration"])
        text = a["name"] + " " + a["description"]
        assert not re.search(r"\bfloor \d|\bL\d\b|\b(first|second|third|fourth) floor", text, re.I), text
        assert re.search(r"Level [1-4]\b|\bsite\b|\broof\b", a["description"]), a["description"]
        assert a["description"].endswith(".") and a["description"].count(". ") == 0
    for r in rels:
        assert set(r) == {"id", "type", "predecessor", "successor", "lag"}
        assert r["type"] in ("FS", "SS", "FF", "SF")
        assert isinstance(r["lag"], int)
        assert r["predecessor"] in idset and r["successor"] in idset
        assert r["predecessor"] != r["successor"], "self link %s" % r["id"]
        t = (r["predecessor"], r["successor"], r["type"])
        assert t not in triples, "duplicate link %s" % (t,)
        triples.add(t)
    # acyclic at activity level
    assert len(topo_order(ids, rels)) == len(ids), "cycle in activity network"
    has_pred = {r["successor"] for r in rels}
    has_succ = {r["predecessor"] for r in rels}
    first, last = ids[0], key_to_id["handover"]
    assert acts[0]["name"] == "Notice to proceed"
    for i in ids:
        if i != first:
            assert i in has_pred, "%s has no predecessor" % i
        if i != last:
            assert i in has_succ, "%s has no successor" % i
    assert first not in has_pred and last not in has_succ
    # relationship variety
    types = Counter(r["type"] for r in rels)
    assert all(types[t] > 0 for t in ("FS", "SS", "FF", "SF")), types
    assert types["FS"] > sum(types.values()) / 2
    assert any(r["lag"] < 0 for r in rels)
    pairs = defaultdict(set)
    for r in rels:
        pairs[(r["predecessor"], r["successor"])].add(r["type"])
    assert sum(1 for v in pairs.values() if {"SS", "FF"} <= v) >= 5, "need SS+FF ladders"
    # per-level counts and naming
    for n in LEVELS:
        c = sum(1 for a in acts if a["name"].endswith("Level %d" % n))
        assert 20 <= c <= 25, (n, c)
        for a in acts:
            if a["name"].endswith("Level %d" % n):
                assert "on Level %d" % n in a["description"], a
    dists = [a for a in acts if _DIST.match(a["duration"])]
    assert 5 <= len(dists) <= 8, len(dists)
    assert any("." in a["duration"] and not _DIST.match(a["duration"]) for a in acts)
    for name in ("Notice to proceed", "Structure topped out", "Building watertight",
                 "Substantial completion", "Handover"):
        assert any(a["name"] == name and a["duration"] == "0" for a in acts), name
    return types, len(dists)


def main():
    doc = {
        "name": "Sample building",
        "start_date": "2026-01-05",
        "calendar": {
            "workdays": ["Mon", "Tue", "Wed", "Thu", "Fri"],
            "holidays": HOLIDAYS,
        },
        "activities": activities,
        "relationships": relationships,
    }
    types, ndist = check(doc)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "building.json")
    with open(out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    print("wrote %s" % out)
    print("activities: %d (%d with distributions, %d milestones)" % (
        len(activities), ndist, sum(1 for a in activities if a["duration"] == "0")))
    print("relationships: %d (%s)" % (
        len(relationships), ", ".join("%s=%d" % (t, types[t]) for t in ("FS", "SS", "FF", "SF"))))
    print("negative lags: %d" % sum(1 for r in relationships if r["lag"] < 0))
    print("CPM project duration: %g working days" % cpm(activities, relationships))


if __name__ == "__main__":
    main()
