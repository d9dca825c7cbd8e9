@_exported public import PlistCore
@_exported public import PlistXML
