//! Meshes for table shapes: filled polygons (concave ones too) and rectangles.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

/// A flat mesh of a simple polygon, triangulated by ear clipping (the `earcut` crate).
/// Returns `None` for a polygon that cannot be triangulated.
pub fn polygon_mesh(points: &[Vec2]) -> Option<Mesh> {
    if points.len() < 3 {
        return None;
    }
    let flat: Vec<[f32; 2]> = points.iter().map(|p| [p.x, p.y]).collect();
    let mut indices: Vec<u32> = Vec::new();
    earcut::Earcut::new().earcut(flat.iter().copied(), &[], &mut indices);
    if indices.is_empty() {
        return None;
    }
    let positions: Vec<[f32; 3]> = points.iter().map(|p| [p.x, p.y, 0.0]).collect();
    let normals = vec![[0.0, 0.0, 1.0]; points.len()];
    let uvs = vec![[0.0, 0.0]; points.len()];
    Some(
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concave_polygon_triangulates_to_n_minus_two_triangles() {
        // An L shape: 6 corners, 4 triangles.
        let l = [
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 4.0),
            Vec2::new(0.0, 4.0),
        ];
        let mesh = polygon_mesh(&l).unwrap();
        assert_eq!(mesh.indices().unwrap().len(), 12);
    }
}
