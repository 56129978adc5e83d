package kit

// GroupSettingIDs copies ids, as an empty list rather than a null one.
func GroupSettingIDs(ids []int64) []int64 {
	return append(make([]int64, 0, len(ids)), ids...)
}
