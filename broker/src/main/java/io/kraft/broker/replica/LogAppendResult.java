package io.kraft.broker.replica;

import io.kraft.storage.log.AppendInfo;

/** What a leader append wrote, and whether it moved the high watermark (so waiting requests re-check). */
public record LogAppendResult(AppendInfo info, boolean highWatermarkIncreased) {
}
