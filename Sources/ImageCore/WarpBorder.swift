/// What a warp reads where it samples outside the source image.
public enum WarpBorder: Sendable, Hashable {
    /// Every tap outside the image reads this colour (OpenCV `BORDER_CONSTANT`);
    /// taps inside still count, so edges blend smoothly into the colour.
    case constant(RGBColor)
    /// Taps outside read the nearest edge pixel (OpenCV `BORDER_REPLICATE`).
    case replicate

    /// Black constant border, MediaPipe's choice for letterboxes and ROI crops.
    public static let black = WarpBorder.constant(.black)
}
