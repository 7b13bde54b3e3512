// FFmpeg 5.1 (Debian 12's libavformat-dev, libavcodec-dev,
// libavutil-dev): demuxing and decoding video inputs, encoding redacted video.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/cpu.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>

// Swift cannot import FFmpeg's error macros (AVERROR_EOF is built from
// FFERRTAG, AVERROR(e) negates an errno): re-exported as constants.
static const int facepipe_averror_eof = AVERROR_EOF;
static const int facepipe_averror_eagain = AVERROR(EAGAIN);
static const int facepipe_averror_invaliddata = AVERROR_INVALIDDATA;
static const int facepipe_averror_enomem = AVERROR(ENOMEM);
static const long long facepipe_av_nopts_value = AV_NOPTS_VALUE;
static const int facepipe_av_time_base = AV_TIME_BASE;
