@_exported public import PlistCore
