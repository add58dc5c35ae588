//! The table editor's state: the scenario being edited (through the engine's `editor` seam,
//! which checks every edit with the ruleset's own loader), what is selected, the tool in hand,
//! and the snap. The window that draws it is `ui::editor_window`.

use crate::paths::DataPaths;
use crate::rulesets::Rulesets;
use bevy::prelude::*;
use sandtable_engine::editor::{AnyEditor, Edit, middle, translated};
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use sandtable_engine::scenario_script::ObjectiveSpec;
use std::path::{Path, PathBuf};

/// What is selected on the table.
#[derive(Debug, Clone, PartialEq)]
pub enum Selection {
    Terrain(usize),
    Objective(usize),
    Piece(String),
}

/// What a click on empty table does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tool {
    #[default]
    Select,
    AddTerrain,
    AddObjective,
}

/// Kinds the editor offers to add.
pub const KINDS: [TerrainKind; 17] = [
    TerrainKind::Grove,
    TerrainKind::Forest,
    TerrainKind::Hill,
    TerrainKind::SteepHill,
    TerrainKind::WheatField,
    TerrainKind::PloughedField,
    TerrainKind::Marsh,
    TerrainKind::Lake,
    TerrainKind::Stream,
    TerrainKind::River,
    TerrainKind::Ford,
    TerrainKind::Bridge,
    TerrainKind::Road,
    TerrainKind::Obstacle,
    TerrainKind::BuiltUpArea,
    TerrainKind::Building,
    TerrainKind::Fortification,
];

/// Linear kinds are laid as a strip along their length.
pub fn linear(kind: TerrainKind) -> bool {
    matches!(
        kind,
        TerrainKind::Stream
            | TerrainKind::River
            | TerrainKind::Road
            | TerrainKind::Obstacle
            | TerrainKind::Fortification
    )
}

#[derive(Resource, Default)]
pub struct TableEditor {
    pub editor: Option<Box<dyn AnyEditor>>,
    pub selected: Option<Selection>,
    pub tool: Tool,
    /// The kind and size (length and width for linear kinds) of terrain to add.
    pub kind: usize,
    pub size: (f32, f32),
    /// Positions snap to this many cm (0: no snap).
    pub snap: f32,
    /// Why the last edit was refused, or what the last save did.
    pub notice: Option<String>,
    pub path: Option<PathBuf>,
    /// The force (an index in the set-up window's list) and side to add units from and to.
    pub force_pick: usize,
    pub force_side: usize,
    /// The title as it is being typed, taken when the field is left.
    pub title_draft: Option<String>,
}

impl TableEditor {
    /// Opens a scenario for editing.
    pub fn open(&mut self, rulesets: &Rulesets, paths: &DataPaths, path: &Path) {
        match rulesets.0.open_editor(path, &paths.dirs) {
            Ok(e) => {
                *self = Self {
                    editor: Some(e),
                    path: Some(path.to_path_buf()),
                    size: (15.0, 15.0),
                    snap: 1.0,
                    ..Default::default()
                };
            }
            Err(e) => self.notice = Some(e.lines().join("; ")),
        }
    }

    pub fn snapped(&self, p: (f32, f32)) -> (f32, f32) {
        if self.snap <= 0.0 {
            return p;
        }
        let s = |v: f32| (v / self.snap).round() * self.snap;
        (s(p.0), s(p.1))
    }

    /// Applies an edit, keeping the loader's reason when it is refused.
    pub fn apply(&mut self, edit: Edit) -> bool {
        let Some(ed) = self.editor.as_mut() else {
            return false;
        };
        match ed.apply(edit) {
            Ok(()) => {
                self.notice = None;
                true
            }
            Err(problems) => {
                ed.end_group();
                self.notice = Some(format!("Refused: {}", problems.join("; ")));
                false
            }
        }
    }

    /// The terrain to add at `at`, of the kind and size in hand.
    pub fn new_terrain(&self, at: (f32, f32)) -> TerrainSpec {
        let kind = KINDS[self.kind.min(KINDS.len() - 1)];
        let shape = if linear(kind) {
            let h = self.size.0 * 0.5;
            ShapeSpec::Strip {
                points: vec![(at.0 - h, at.1), (at.0 + h, at.1)],
                width: self.size.1.min(8.0),
            }
        } else {
            ShapeSpec::Rect {
                center: at,
                size: self.size,
                rotation: 0.0,
            }
        };
        TerrainSpec {
            kind,
            name: None,
            shape,
        }
    }

    /// A click on the table with the tool in hand: add there, or select what is there.
    pub fn click(&mut self, at: (f32, f32)) {
        let at = self.snapped(at);
        match self.tool {
            Tool::AddTerrain => {
                let t = self.new_terrain(at);
                if self.apply(Edit::AddTerrain(t)) {
                    let n = self.editor.as_ref().map_or(0, |e| e.terrain().len());
                    self.selected = Some(Selection::Terrain(n.saturating_sub(1)));
                }
            }
            Tool::AddObjective => {
                let n = self.editor.as_ref().map_or(0, |e| e.objectives().len());
                let o = ObjectiveSpec {
                    id: format!("objective-{}", n + 1),
                    name: format!("Objective {}", n + 1),
                    position: at,
                    radius: 10.0,
                    vp: 3,
                    held_by: None,
                };
                if self.apply(Edit::AddObjective(o)) {
                    self.selected = Some(Selection::Objective(n));
                }
            }
            Tool::Select => self.selected = self.pick(at),
        }
    }

    /// What lies at `at`: a piece first, then an objective, then the topmost terrain.
    pub fn pick(&self, at: (f32, f32)) -> Option<Selection> {
        let ed = self.editor.as_ref()?;
        let p = sandtable_geometry::Vec2::new(at.0, at.1);
        if let Some(piece) = ed.pieces().iter().rev().find(|x| {
            x.bases
                .iter()
                .any(|c| sandtable_geometry::prim::point_in_polygon(p, c))
        }) {
            return Some(Selection::Piece(piece.id.clone()));
        }
        if let Some(i) = ed
            .objectives()
            .iter()
            .position(|o| (o.position.0 - at.0).hypot(o.position.1 - at.1) <= o.radius.max(2.0))
        {
            return Some(Selection::Objective(i));
        }
        ed.terrain()
            .iter()
            .enumerate()
            .rev()
            .find(|(_, t)| {
                sandtable_engine::scenario_geometry::shape_polygons(&t.shape)
                    .iter()
                    .any(|poly| sandtable_geometry::prim::point_in_polygon(p, poly))
            })
            .map(|(i, _)| Selection::Terrain(i))
    }

    /// Moves the selection by a drag of `(dx, dy)` cm, its new place snapped.
    pub fn drag_selected(&mut self, dx: f32, dy: f32) {
        let Some(sel) = self.selected.clone() else {
            return;
        };
        let Some(ed) = self.editor.as_ref() else {
            return;
        };
        let edit = match sel {
            Selection::Piece(id) => {
                ed.pieces()
                    .iter()
                    .find(|p| p.id == id)
                    .map(|p| Edit::PlacePiece {
                        id: id.clone(),
                        position: self.snapped((p.position.0 + dx, p.position.1 + dy)),
                        facing: p.facing,
                    })
            }
            Selection::Objective(i) => ed.objectives().get(i).map(|o| {
                let mut o = o.clone();
                o.position = self.snapped((o.position.0 + dx, o.position.1 + dy));
                Edit::SetObjective(i, o)
            }),
            Selection::Terrain(i) => ed.terrain().get(i).map(|t| {
                let (mx, my) = middle(&t.shape);
                let to = self.snapped((mx + dx, my + dy));
                let mut t = t.clone();
                t.shape = translated(&t.shape, to.0 - mx, to.1 - my);
                Edit::SetTerrain(i, t)
            }),
        };
        if let Some(e) = edit {
            // A drag is one undo step of its own.
            if let Some(ed) = self.editor.as_mut() {
                ed.end_group();
            }
            self.apply(e);
            if let Some(ed) = self.editor.as_mut() {
                ed.end_group();
            }
        }
    }

    /// Adds the units of a force (the section's own text) to a side, in a row along its edge.
    pub fn add_units(&mut self, side: usize, text: &str) -> bool {
        let Some(ed) = self.editor.as_mut() else {
            return false;
        };
        ed.end_group();
        match ed.add_units(side, text) {
            Ok(()) => {
                self.notice =
                    Some("Units added along the side's edge: drag them into place.".into());
                true
            }
            Err(problems) => {
                self.notice = Some(format!("Refused: {}", problems.join("; ")));
                false
            }
        }
    }

    /// Deletes the selection.
    pub fn delete_selected(&mut self) {
        let edit = match self.selected.clone() {
            Some(Selection::Terrain(i)) => Edit::RemoveTerrain(i),
            Some(Selection::Objective(i)) => Edit::RemoveObjective(i),
            Some(Selection::Piece(id)) => Edit::RemovePiece(id),
            None => return,
        };
        if self.apply(edit) {
            self.selected = None;
        }
    }

    /// Saves among the player's own scenarios under `name` (atomically); returns the file.
    pub fn save_as(&mut self, dir: &Path, name: &str) -> Result<PathBuf, String> {
        let ed = self.editor.as_mut().ok_or("nothing is open")?;
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let stem = crate::paths::slug(name, "scenario");
        // Never over another file than the one being edited: a number is added instead.
        let mut path = dir.join(format!("{stem}.ron"));
        let mut n = 2;
        while path.exists() && self.path.as_deref() != Some(path.as_path()) {
            path = dir.join(format!("{stem}-{n}.ron"));
            n += 1;
        }
        ed.save(&path)?;
        self.notice = Some(format!("Saved as {}", path.display()));
        self.path = Some(path.clone());
        Ok(path)
    }
}

/// `--edit PATH` opens the editor at start.
#[derive(Resource, Debug, Clone, Default)]
pub struct EditAtStart(pub Option<PathBuf>);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<TableEditor>()
        .init_resource::<EditAtStart>()
        .add_systems(Startup, open_at_start);
}

fn open_at_start(
    at_start: Res<EditAtStart>,
    mut editor: ResMut<TableEditor>,
    rulesets: Res<Rulesets>,
    paths: Res<DataPaths>,
) {
    if let Some(p) = &at_start.0 {
        editor.open(&rulesets, &paths, p);
    }
}
