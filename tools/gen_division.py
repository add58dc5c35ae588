# Generates scenarios/04-division-sobota.ron (run: python3 tools/gen_division.py scenarios/04-division-sobota.ron): a Division battle, 27 fighting units and 3 wagons a side, placed in rows with no base overlapping.
W, D = 240.0, 150.0
PROF = {  # profile: (base width, base depth, bases, files)
    "winged-hussars": (4, 3, 3, 3), "pancerni": (4, 3, 3, 3), "cossack-cavalry": (4, 3, 3, 3),
    "haiduks": (4, 2, 4, 4), "polish-dragoons": (4, 3, 2, 2), "falconet": (4, 4, 1, 1),
    "reiters": (4, 3, 3, 3), "finnish-horse": (4, 3, 3, 3), "musketeers": (4, 2, 4, 4),
    "pikemen": (4, 2, 4, 2), "regimental-gun": (4, 4, 1, 1), "twelve-pounder": (4, 4, 1, 1),
    "transport-wagon": (4, 6, 1, 1), "ammunition-wagon": (4, 6, 1, 1),
}
GAP = 3.0

def rows(side, spec):
    """spec: list of rows (depth_from_edge, x0, [(id, name, profile, regiment)]).
    Returns units with positions (middle of front edge)."""
    out = []
    for y_edge, x0, units in spec:
        x = x0
        for uid, name, prof, reg in units:
            bw, bd, n, files = PROF[prof]
            w = bw * files
            cx = x + w / 2
            if side == 0:
                pos, facing = (cx, y_edge), 0.0
            else:
                pos, facing = (W - cx, D - y_edge), 180.0
            out.append((uid, name, prof, reg, n, files, pos, facing, w, bd * ((n + files - 1) // files)))
            x += w + GAP
        assert x - GAP <= W - 4, (uid, x)
    return out

def rect(u, side):
    uid, name, prof, reg, n, files, (px, py), facing, w, depth = u
    if side == 0:
        return (px - w / 2, py - depth, px + w / 2, py)
    return (px - w / 2, py, px + w / 2, py + depth)

pl = rows(0, [
    (34, 10, [("hussars-1", "Royal hussar banner", "winged-hussars", "hussars"),
              ("hussars-2", "Hetman's hussar banner", "winged-hussars", "hussars"),
              ("hussars-3", "Hussars of Prince Dymitr", "winged-hussars", "hussars"),
              ("hussars-4", "Hussars of the Field Hetman", "winged-hussars", "hussars"),
              ("falconet-1", "Falconet of the left", "falconet", "foot"),
              ("haiduks-1", "Royal haiduks", "haiduks", "foot"),
              ("haiduks-2", "Czarniecki's haiduks", "haiduks", "foot"),
              ("haiduks-3", "Lubomirski's haiduks", "haiduks", "foot"),
              ("haiduks-4", "Haiduks of the Crown", "haiduks", "foot"),
              ("falconet-2", "Falconet of the right", "falconet", "foot"),
              ("pancerni-3", "Pancerni of Wojniłłowicz", "pancerni", "wing"),
              ("pancerni-4", "Pancerni of Polanowski", "pancerni", "wing"),
              ("pancerni-5", "Pancerni of Mężyński", "pancerni", "wing"),
              ("pancerni-6", "Pancerni of Kmicic", "pancerni", "wing")]),
    (21, 17, [("pancerni-1", "Pancerni of the Hetman's regiment", "pancerni", "hussars"),
              ("pancerni-2", "Pancerni of Ruszczyc", "pancerni", "hussars"),
              ("dragoons-1", "Royal dragoons", "polish-dragoons", "foot"),
              ("haiduks-5", "Haiduks of Sandomierz", "haiduks", "foot"),
              ("haiduks-6", "Haiduks of Lwów", "haiduks", "foot"),
              ("dragoons-2", "Dragoons of Ruthenia", "polish-dragoons", "foot"),
              ("cossacks-1", "Cossack banner of the right", "cossack-cavalry", "wing"),
              ("cossacks-2", "Cossack banner of Kozłowski", "cossack-cavalry", "wing")]),
    (8, 100, [("cossacks-3", "Tatar volunteers", "cossack-cavalry", "light"),
              ("cossacks-4", "Lipka Tatars", "cossack-cavalry", "light"),
              ("cossacks-5", "Volunteers of Podlasie", "cossack-cavalry", "light"),
              ("cossacks-6", "Volunteers of Volhynia", "cossack-cavalry", "light"),
              ("cossacks-7", "Volunteers of Kiev", "cossack-cavalry", "light")]),
    # The baggage, under the Commander-in-Chief (no regiment): wagons never count towards a
    # regiment's Breaking Points.
    (8, 62, [("wagons-1", "Baggage of the Crown army", "transport-wagon", None),
             ("wagons-2", "Baggage of the hussar companies", "transport-wagon", None),
             ("powder-1", "Powder wagon of the Crown artillery", "ammunition-wagon", None)]),
])
sw = rows(1, [
    (34, 10, [("reiters-1", "Leib squadron", "reiters", "horse-right"),
              ("reiters-2", "Wrangel's reiters", "reiters", "horse-right"),
              ("reiters-3", "Reiters of Småland", "reiters", "horse-right"),
              ("finns-1", "Finnish horse of Åbo", "finnish-horse", "horse-right"),
              ("gun-1", "Regimental gun of the Life Guard", "regimental-gun", "guard"),
              ("musketeers-1", "Life Guard musketeers", "musketeers", "guard"),
              ("musketeers-2", "Life Guard musketeers, second battalion", "musketeers", "guard"),
              ("musketeers-3", "Uppland musketeers", "musketeers", "uppland"),
              ("musketeers-4", "Uppland musketeers, second battalion", "musketeers", "uppland"),
              ("gun-2", "Regimental gun of Uppland", "regimental-gun", "uppland"),
              ("reiters-4", "Sulzbach's reiters", "reiters", "horse-left"),
              ("reiters-5", "Reiters of Östergötland", "reiters", "horse-left"),
              ("reiters-6", "Reiters of Västergötland", "reiters", "horse-left"),
              ("finns-2", "Finnish horse of Nyland", "finnish-horse", "horse-left")]),
    (20, 17, [("finns-3", "Finnish horse of Tavastland", "finnish-horse", "horse-right"),
              ("reiters-7", "Reiters of the rearguard", "reiters", "horse-right"),
              ("pikemen-1", "Life Guard pikes", "pikemen", "guard"),
              ("musketeers-5", "Life Guard musketeers, third battalion", "musketeers", "guard"),
              ("pikemen-2", "Life Guard pikes, second company", "pikemen", "guard"),
              ("pikemen-3", "Uppland pikes", "pikemen", "uppland"),
              ("musketeers-6", "Uppland musketeers, third battalion", "musketeers", "uppland"),
              ("pikemen-4", "Uppland pikes, second company", "pikemen", "uppland"),
              ("finns-4", "Finnish horse of Karelia", "finnish-horse", "horse-left"),
              ("reiters-8", "Reiters of Uppland", "reiters", "horse-left"),
              ("reiters-9", "Reiters of Dalarna", "reiters", "horse-left"),
              ("finns-5", "Finnish horse of Viborg", "finnish-horse", "horse-left")]),
    (6, 112, [("twelve-1", "The 12 pounder of the park", "twelve-pounder", "guard")]),
    (6, 90, [("baggage-1", "The King's baggage", "transport-wagon", None),
             ("baggage-2", "Baggage of the Guard", "transport-wagon", None),
             ("powder-2", "Powder wagon of the park", "ammunition-wagon", None)]),
])
assert len(pl) == 30 and len(sw) == 30, (len(pl), len(sw))
rects = [(u[0], rect(u, 0)) for u in pl] + [(u[0], rect(u, 1)) for u in sw]
for i, (a, r) in enumerate(rects):
    assert 0 <= r[0] and r[2] <= W and 0 <= r[1] and r[3] <= D, (a, r)
    for b, s in rects[i + 1:]:
        assert r[2] <= s[0] or s[2] <= r[0] or r[3] <= s[1] or s[3] <= r[1], (a, b, r, s)

def cx(units, reg):
    xs = [u[6][0] for u in units if u[3] == reg and reg is not None]
    return sum(xs) / len(xs)

def fmt(u):
    uid, name, prof, reg, n, files, (px, py), facing, w, depth = u
    form = "Column" if files == 1 else f"Line(files: {files})"
    regiment = f'Some("{reg}")' if reg else "None"
    return (f'          Unit(id: "{uid}", name: Some("{name}"), profile: "{prof}", regiment: {regiment}, '
            f'formation: {form}, bases: {n}, position: ({px:.1f}, {py:.1f}), facing: {facing}),')

def cmd(cid, name, rank, cp, pos, facing, reg=None, instr=None, profile=None):
    s = f'          Commander(id: "{cid}", name: "{name}", rank: {rank}, command_points: {cp}, position: ({pos[0]:.1f}, {pos[1]:.1f}), facing: {facing}'
    if profile: s += f', profile: "{profile}"'
    if reg: s += f', regiment: Some("{reg}")'
    if instr: s += f', instruction: Some({instr})'
    return s + "),"

# Commanders stand between the first and second lines (Poles y 24.5; Swedes 150 - 24.5).
pl_cmds = [
    cmd("czarniecki", "Hetman Stefan Czarniecki", "CommanderInChief", 6, (84.0, 10.0), 0.0),
    cmd("polanowski", "Col. Polanowski", "Regimental", 2, (cx(pl, "hussars"), 26.0), 0.0, "hussars", "Move"),
    cmd("wolodyjowski", "Col. Wołodyjowski", "Regimental", 2, (cx(pl, "foot") - 6, 26.0), 0.0, "foot", "Defense"),
    cmd("kmicic", "Col. Kmicic", "Regimental", 2, (cx(pl, "wing") + 8, 26.0), 0.0, "wing", "Move"),
    cmd("kulesza", "Regimentarz Kulesza", "Regimental", 2, (cx(pl, "light"), 13.0), 0.0, "light", "Move"),
]
sw_cmds = [
    cmd("karl-gustav", "King Charles X Gustav", "CommanderInChief", 6, (120.0, 146.0), 180.0),
    cmd("wrangel", "Col. Wrangel", "Regimental", 2, (cx(sw, "horse-right"), 124.0), 180.0, "horse-right", "Move"),
    cmd("forgell", "Col. Forgell", "Regimental", 2, (cx(sw, "guard") + 6, 124.0), 180.0, "guard", "Defense"),
    cmd("bielke", "Col. Bielke", "Regimental", 2, (cx(sw, "uppland") - 4, 124.0), 180.0, "uppland", "Defense"),
    cmd("sulzbach", "Col. Sulzbach", "Regimental", 2, (cx(sw, "horse-left"), 124.0), 180.0, "horse-left", "Move"),
    cmd("linroth", "Lt-Col. Linroth, of the artillery", "Second", 1, (106.0, 140.0), 180.0, "guard", None, "artillery-colonel"),
]

terrain = """    Terrain(kind: Forest, name: Some("Wood of Gołąb"), shape: Polygon([(12.0, 58.0), (38.0, 52.0), (50.0, 66.0), (42.0, 84.0), (18.0, 82.0)])),
    Terrain(kind: Hill, name: Some("Windmill rise"), shape: Polygon([(150.0, 60.0), (176.0, 56.0), (190.0, 70.0), (180.0, 88.0), (156.0, 86.0)])),
    Terrain(kind: BuiltUpArea, name: Some("Sobota village"), shape: Rect(center: (108.0, 74.0), size: (16.0, 12.0))),
    Terrain(kind: WheatField, name: Some("Rye field"), shape: Rect(center: (74.0, 96.0), size: (20.0, 12.0), rotation: 6.0)),
    Terrain(kind: PloughedField, name: Some("Ploughland"), shape: Rect(center: (132.0, 52.0), size: (18.0, 10.0), rotation: -5.0)),
    Terrain(kind: Marsh, name: Some("Bzura marsh"), shape: Polygon([(206.0, 88.0), (222.0, 84.0), (228.0, 96.0), (212.0, 100.0)])),
    Terrain(kind: Road, name: Some("Łowicz road"), shape: Strip(points: [(100.0, 0.0), (104.0, 60.0), (112.0, 90.0), (118.0, 150.0)], width: 4.0)),
    Terrain(kind: Grove, name: Some("Birch grove"), shape: Rect(center: (206.0, 60.0), size: (12.0, 10.0))),"""

out = f"""// A Division battle: four regiments a side under their colonels, 27 units each, guns on both
// sides and the baggage behind them (two transport wagons and a powder wagon each, under the
// Commander-in-Chief), on a 240 x 150 cm table. Coordinates are table centimetres from the
// south-west corner; facings are compass bearings (0 = north, 180 = south); a unit's position is
// the middle of its front edge. Generated by tools/gen_division.py; the orders of battle are our
// own, loosely after the fighting around Łowicz and Sobota in 1655-56.
Scenario(
  format: 2,
  name: "Division: the fields of Sobota (1656)",
  ruleset: "bfs",
  menu_order: 15,
  briefing: "Czarniecki's division meets the King's army in the fields of Sobota. Each side fields a Division: a Commander-in-Chief and four regiments under their colonels, 27 units a side, with guns, and the baggage wagons in the rear: wagons nobody defends are taken by whoever reaches them (BFS-WAG-6), and a powder wagon hit by fire explodes (BFS-WAG-11). Colonels act under Instructions, which the Commander-in-Chief gives face down (BFS-ORD-11); an order contrary to its colonel's Instruction costs a command point more once turned up (BFS-ORD-12). Regiments test their Motivation when their Breaking Points mount up (BFS-PSY-27). The Polish-Lithuanian side deploys along the south edge, the Swedes along the north. Six turns.",
  table: (width: {W}, depth: {D}),
  turn_limit: 6,
  seed: 1656,
  terrain: [
{terrain}
  ],
  sides: [
    Side(name: "Polish-Lithuanian", home_edge: South),
    Side(name: "Swedish", home_edge: North),
  ],
  rules: Bfs(
    level: Division,
    forces: [
      Force(
        army_list: "polish-lithuanian-1655",
        commanders: [
{chr(10).join(pl_cmds)}
        ],
        regiments: [
          Regiment(id: "hussars", name: "Hetman's hussar regiment", motivation_percent: Some(50)),
          Regiment(id: "foot", name: "Foot and dragoons", motivation_percent: Some(50)),
          Regiment(id: "wing", name: "Pancerni of the right wing", motivation_percent: Some(50)),
          Regiment(id: "light", name: "Light horse and volunteers", motivation_percent: Some(30)),
        ],
        units: [
{chr(10).join(fmt(u) for u in pl)}
        ],
      ),
      Force(
        army_list: "swedish-1655",
        commanders: [
{chr(10).join(sw_cmds)}
        ],
        regiments: [
          Regiment(id: "horse-right", name: "Horse of the right wing", motivation_percent: Some(50)),
          Regiment(id: "guard", name: "Life Guard of Foot", motivation_percent: Some(50)),
          Regiment(id: "uppland", name: "Uppland regiment of foot", motivation_percent: Some(50)),
          Regiment(id: "horse-left", name: "Horse of the left wing", motivation_percent: Some(50)),
        ],
        units: [
{chr(10).join(fmt(u) for u in sw)}
        ],
      ),
    ],
  ),
)
"""
import sys
open(sys.argv[1], "w").write(out)
print("ok", len(pl), len(sw))
