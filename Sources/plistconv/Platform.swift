#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls of the tool, one home each (the files themselves go through PlistKit's
/// file layer): the file-size signal, the environment, `printf`'s number formats and local time.
enum Platform {
    /// Past the file-size limit (`ulimit -f`), a write then fails with EFBIG, which is reported
    /// with the file's name, instead of killing the process with no message and the temporary
    /// file left behind. (The tool's choice: PlistKit changes no signal.)
    static func reportFileSizeLimitAsError() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// The value of the environment variable `name`, if it is set.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `value` as C's `printf` writes it with `format` (`%f`, `%.16g`), which PlistBuddy and
    /// `defaults` print reals with.
    static func formatted(_ value: Double, _ format: String) -> String {
        var buffer = [CChar](repeating: 0, count: 400)  // %f of the largest double takes 316
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The moment `seconds` after 1970 in local time (`TZ`), written by `strftime` with
    /// `format`; nil when the C library cannot break it down.
    static func localTime(_ seconds: Int64, _ format: String) -> String? {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 128)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The calendar fields as C's `struct tm` counts them (years since 1900, months from 0).
    struct CalendarFields {
        var yearsSince1900: Int32 = 0
        var month: Int32 = 0
        var day: Int32 = 0
        var hour: Int32 = 0
        var minute: Int32 = 0
        var second: Int32 = 0
    }

    /// The seconds since 1970 that `fields` stand for, in UTC (`timegm`) or in local time with
    /// the zone's daylight saving time as it was then (`mktime`).
    static func seconds(of fields: CalendarFields, utc: Bool) -> Int64 {
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (fields.yearsSince1900, fields.month, fields.day)
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (fields.hour, fields.minute, fields.second)
        parts.tm_isdst = -1
        return Int64(utc ? timegm(&parts) : mktime(&parts))
    }
}
