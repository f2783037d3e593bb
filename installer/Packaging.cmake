# CPack: a .deb of the CLI (the GUI joins it with the workbench issue).
include(GNUInstallDirs)
install(DIRECTORY "${CMAKE_SOURCE_DIR}/resources/incidents"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/breakerlab")

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
