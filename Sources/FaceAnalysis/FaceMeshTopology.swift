/// Index lists into MediaPipe's 468-point face mesh (the public canonical
/// topology; the same vertices MediaPipe's `face_mesh_connections` draws).
///
/// Sides are the subject's: "left" lies on the image's right for a face
/// looking at the camera. Open lines run from the image's left to its right
/// for an upright frontal face; closed contours start at the image-left
/// corner and run clockwise as seen in the image (over the top first).
public enum FaceMeshTopology {
    /// The face oval, 36 points, from the top of the forehead (10) clockwise
    /// as seen in the image.
    public static let faceOval = [
        10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377,
        152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
    ]
    /// The lower face contour from the right temple (127) over the chin (152)
    /// to the left temple (356): Vision's `faceContour`.
    public static let jawline = [
        127, 234, 93, 132, 58, 172, 136, 150, 149, 176, 148, 152,
        377, 400, 378, 379, 365, 397, 288, 361, 323, 454, 356,
    ]

    /// Eyebrows, upper and lower edges, 5 points each, image left to right.
    public static let leftEyebrowTop = [336, 296, 334, 293, 300]
    public static let leftEyebrowBottom = [285, 295, 282, 283, 276]
    public static let rightEyebrowTop = [70, 63, 105, 66, 107]
    public static let rightEyebrowBottom = [46, 53, 52, 65, 55]

    /// Eye openings, 16 points, closed: image-left corner, upper lid, image-right corner, lower lid.
    public static let leftEye = [362, 398, 384, 385, 386, 387, 388, 466, 263, 249, 390, 373, 374, 380, 381, 382]
    public static let rightEye = [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7]

    /// Outer lip line, upper half with both corners (61 → 291), 11 points.
    public static let upperLipOuter = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291]
    /// Inner upper lip line without the corners, 9 points.
    public static let upperLipInner = [191, 80, 81, 82, 13, 312, 311, 310, 415]
    /// Inner lower lip line without the corners, 9 points.
    public static let lowerLipInner = [95, 88, 178, 87, 14, 317, 402, 318, 324]
    /// Outer lower lip line without the corners, 9 points.
    public static let lowerLipOuter = [146, 91, 181, 84, 17, 314, 405, 321, 375]
    /// Mouth corners: outer (61, 291) and inner (78, 308).
    public static let mouthOuterCorners = (right: 61, left: 291)
    public static let mouthInnerCorners = (right: 78, left: 308)

    /// Nose ridge from between the eyes to the tip.
    public static let noseCrest = [168, 6, 197, 195, 5, 4, 1]
    /// Nose outline: down the right side, around the nostrils, up the left side.
    public static let noseOutline = [193, 122, 196, 3, 51, 45, 48, 64, 98, 97, 2, 326, 327, 294, 278, 275, 281, 248, 419, 351, 417]
    /// Face midline from the forehead to the chin.
    public static let medianLine = [10, 151, 9, 8, 168, 6, 197, 195, 5, 4, 1, 2, 164, 0, 13, 14, 17, 18, 200, 199, 175, 152]

    /// Single named points.
    public static let noseTip = 1
    public static let noseBase = 2
    public static let chin = 152
    public static let forehead = 10
    public static let leftCheekCentre = 425
    public static let rightCheekCentre = 205
    /// Face-oval points at ear height (the mesh has no ears).
    public static let leftEarProxy = 454
    public static let rightEarProxy = 234
    /// Eye corners: outer and inner.
    public static let leftEyeCorners = (outer: 263, inner: 362)
    public static let rightEyeCorners = (outer: 33, inner: 133)
    /// Upper and lower lid midpoints.
    public static let leftEyeLids = (upper: 386, lower: 374)
    public static let rightEyeLids = (upper: 159, lower: 145)
}
