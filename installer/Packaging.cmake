# CPack: one .deb with the workbench (breakerlab), the CLI (breakerlab-cli), the bundled
# incidents and the desktop integration.
include(GNUInstallDirs)
install(DIRECTORY "${CMAKE_SOURCE_DIR}/resources/incidents"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/breakerlab")
# The source documents of the bundled incidents, as written: File > Open takes them directly.
install(DIRECTORY "${CMAKE_SOURCE_DIR}/resources/postmortems"
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
# Loaded with dlopen(), so shlibdeps cannot see them: the platform plugins (xcb, offscreen) and a
# font so that text is not drawn as boxes.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/breakerlab/breakerlab")
set(CPACK_PACKAGE_DESCRIPTION "BreakerLab replays production incidents through a model of a service
calling a flaky dependency (traffic, the dependency's health over time, and the client's circuit
breaker, timeout and fallback cache), shows breaker, dependency and checkout lanes beside the
recorded ones, recomputes the metrics live while knobs move, and exports the tuned config for
resilience4j or gobreaker.")
set(CPACK_STRIP_FILES ON)
include(CPack)
