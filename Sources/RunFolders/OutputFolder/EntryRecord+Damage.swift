import Pipeline

/// The checks a record read back from `DIR/.cache` passes before it is
/// used: a stored record may have been damaged or rewritten (and sealed
/// again), and the stages after it index arrays by counts and multiply
/// sizes, so a value no stage could have produced is refused here, never
/// trapped on later.
extension EntryRecord {
    /// Why this record cannot stand for an entry whose uncached stages
    /// (decoding, orientation) produced `current`, or nil when it can: the
    /// sizes and orientation must be the ones just decoded, and the record
    /// must be consistent in itself (``damage``).
    package func damage(comparedWith current: EntryRecord) -> String? {
        if width != current.width || height != current.height {
            return "size \(width)×\(height), decoded \(current.width)×\(current.height)"
        }
        if exifOrientation != current.exifOrientation {
            return "EXIF orientation \(exifOrientation), decoded \(current.exifOrientation)"
        }
        return damage
    }

    /// Why this record is not one a pipeline could have produced (a size out
    /// of range, point lists of different lengths, a coordinate or score that
    /// is not finite), or nil.
    package var damage: String? {
        guard (0...Self.sideLimit).contains(width), (0...Self.sideLimit).contains(height) else {
            return "size \(width)×\(height) out of range"
        }
        guard (1...8).contains(exifOrientation) else { return "EXIF orientation \(exifOrientation)" }
        for face in faces {
            if let problem = face.damage { return "face \(face.face): \(problem)" }
        }
        return nil
    }

    /// No decoded image is wider or taller (a 100-MP limit allows 10⁸ × 1);
    /// two such sides multiply without overflow.
    static let sideLimit = 1 << 27
}

extension FaceRecord {
    var damage: String? {
        guard face >= 0 else { return "index \(face)" }
        var numbers = [confidence, box.x, box.y, box.width, box.height]
        for point in keypoints { numbers += [point.x, point.y] }
        if let pose { numbers += [pose.roll, pose.yaw, pose.pitch] }
        if let classification { numbers += [classification.smiling, classification.leftEyeOpen, classification.rightEyeOpen] }
        if let quality { numbers.append(quality) }
        guard numbers.allSatisfy(\.isFinite) else { return "a value that is not finite" }
        for group in pointGroups {
            guard group.y.count == group.x.count, group.z.map({ $0.count == group.x.count }) ?? true else {
                return "\(group.name): \(group.x.count) x, \(group.y.count) y, \(group.z.map { "\($0.count)" } ?? "no") z"
            }
            guard group.x.allSatisfy(\.isFinite), group.y.allSatisfy(\.isFinite), group.z?.allSatisfy(\.isFinite) ?? true else {
                return "\(group.name): a coordinate that is not finite"
            }
        }
        return nil
    }
}
