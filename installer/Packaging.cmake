# CPack: a .deb of the CLI (the GUI joins it with the workbench issue).
include(GNUInstallDirs)
install(DIRECTORY "${CMAKE_SOURCE_DIR}/resources/incidents"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/breakerlab")

# Desktop integration of the workbench: launcher, AppStream metadata, the incident MIME type and
# the icon. Debian's triggers (desktop-file-utils, shared-mime-info, the hicolor icon cache)
# refresh their databases when the package installs these, so no maintainer scripts are needed.
install(FILES "${CMAKE_SOURCE_DIR}/installer/breakerlab.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${CMAKE_SOURCE_DIR}/installer/io.github.breakerlab.BreakerLab.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
install(FILES "${CMAKE_SOURCE_DIR}/installer/breakerlab-mime.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages"
        RENAME breakerlab.xml)
install(FILES "${CMAKE_SOURCE_DIR}/resources/icons/breakerlab.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
install(FILES "${CMAKE_SOURCE_DIR}/resources/icons/breakerlab-256.png"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps"
        RENAME breakerlab.png)

set(CPACK_PACKAGE_NAME "breakerlab")
set(CPACK_PACKAGE_VENDOR "BreakerLab")
set(CPACK_PACKAGE_CONTACT "BreakerLab maintainers <breakerlab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
