"""The app's screens and dialogs, one per module; heavy ones are imported when first opened."""
