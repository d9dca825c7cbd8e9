// The libxml2 surface PlistXML uses. Debian builds libxml2 with ICU, whose headers clash with
// Foundation's own ICU module ("'UErrorCode' has different definitions in different modules")
// in any client that also imports Foundation; PlistXML never touches libxml2's ICU-dependent
// types, so the ICU part of the headers is switched off here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

/// Raises libxml2's process-wide nesting limit (`xmlParserMaxDepth`, 256 by default) to `depth`;
/// never lowers it. A function, because Swift 6 refuses to touch a mutable C global directly.
static inline void plist_raise_xml_depth_limit(unsigned int depth) {
    if (xmlParserMaxDepth < depth) xmlParserMaxDepth = depth;
}

static void plist_ignore_xml_message(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Stops libxml2 from printing messages outside the structured error callback (such as
/// encoding errors) on standard error, for the calling thread.
static inline void plist_silence_xml_messages(void) {
    xmlSetGenericErrorFunc(NULL, plist_ignore_xml_message);
}
