/// The subcommands `beacon2mqtt` knows, in the order help lists them.
/// Each command lives in Sources/CLI/Commands/<Name>Command.swift; register it with one line here.
enum CommandRegistry {
    static let all: [any Command.Type] = [
        DecodeCommand.self,
        ReplayCommand.self,
        CheckConfigCommand.self,
        AdaptersCommand.self,
        ScanCommand.self,
        AdvertiseCommand.self,
        RecordCommand.self,
        RunCommand.self,
        StatusCommand.self,
        ConfigCommand.self,
        LocateCommand.self,
        IrkCommand.self,
        SurveyCommand.self,
        ManPageCommand.self,
    ]
}
