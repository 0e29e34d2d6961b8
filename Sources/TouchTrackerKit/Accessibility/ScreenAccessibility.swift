// Names, kinds and states of the screen's controls for assistive tools. Buttons take their
// translated titles as names by themselves (TouchKit's default); this adds what the screen does
// not show in words: the More button's name, the toggles' kind, the swatches' colours, the
// containers' names and the banner as text that is read out when it appears.
import TouchKit

extension DrawViewController {
    func setUpAccessibility() {
        toolbar.accessibilityLabel = Strings.toolbar
        toolbar.moreButton.accessibilityLabel = Strings.more
        // The tools and toggles stay on or off; a tool reads as selected while it is the tool.
        for item: ToolbarView.Item in [.line, .freehand, .circle, .angle, .speed, .fingers, .colours] {
            toolbar.button(item).accessibilityTraits = [.button, .toggleButton]
        }
        zoomControl.accessibilityLabel = Strings.zoomControl
        palette.accessibilityLabel = Strings.colours
        for (swatch, color) in zip(palette.swatches, PaletteView.colors) {
            swatch.accessibilityLabel = ColourName.spoken(color)
        }
        drawView.accessibilityLabel = Strings.drawingArea
        drawView.accessibilityTraits = .allowsDirectInteraction
        banner.isAccessibilityElement = true
        banner.accessibilityTraits = .staticText
    }
}
