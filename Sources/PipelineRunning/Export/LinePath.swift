/// An image path in a line-based annotation file that has no escaping of
/// its own (WIDER FACE's `wider_face_bbx_gt.txt`, RetinaFace's
/// `label.txt`): each path must stay on its one line. `%` and every control
/// character (C0, DEL, C1, U+2028, U+2029) are percent-encoded as their
/// UTF-8 bytes (`%0A` for LF, `%25` for `%`), as in a URL; every other
/// character is written as it is. `urllib.parse.unquote` gives the name back.
enum LinePath {
    static func encoded(_ path: String) -> String {
        path.escapingScalars(where: needsEncoding) { scalar in
            String(scalar).utf8.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return "%" + (digits.count == 1 ? "0" : "") + digits
            }.joined()
        }
    }

    private static func needsEncoding(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "%" || scalar.isControlOrLineBreak
    }
}
