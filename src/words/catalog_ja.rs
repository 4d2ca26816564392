//! The Japanese narration's sentences, kept out of the page's module: a
//! catalog, `narration-ja.txt` beside this file, one sentence template a
//! line (`key: template`), in the order of [`Sentence`]. The Japanese
//! renderer (`text_ja.rs`) keeps the grammar (which sentence, with which
//! facts) and names each sentence by its variant here; [`render`] fills a
//! template with the facts.
//!
//! A template fills named placeholders, `{name}`; `{{` and `}}` are literal
//! braces; `\n` is a line break, `\\` a backslash and `\s` a space (written
//! so at a template's start or end, where an editor could trim it). Lines
//! that are blank or start with `#` are no sentences. The arguments of a
//! sentence are given in the order its placeholders first appear: a native
//! build checks the names given against the template's (the `ja!` macro of
//! `text_ja.rs`, and a test reading every call), so the page's module can
//! leave the names out.
//!
//! Natively the catalog is compiled in. The page's module holds neither the
//! sentences nor their keys: the page fetches `pkg/narration-ja.txt` the
//! first time it speaks Japanese and gives it to [`load`] (`loadNarration`).

use crate::lang::braces::{braces, Brace, BraceError};
use std::fmt::{Display, Write};

/// The sentence ids, each with how many distinct placeholders it fills (a
/// catalog whose template for it fills another number does not load).
macro_rules! sentences {
    ($($id:ident = $fills:literal,)*) => {
        /// One sentence of the catalog: its line, in the file's order.
        #[derive(Clone, Copy, PartialEq, Eq)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(Debug))]
        pub enum Sentence {
            $($id,)*
        }

        impl Sentence {
            /// Every sentence, in the catalog's order.
            pub const ALL: &'static [Sentence] = &[$(Sentence::$id,)*];
            /// How many distinct placeholders each sentence fills.
            const FILLS: &'static [u8] = &[$($fills,)*];

            /// The variant's name (native builds only: the page's module
            /// holds no names).
            #[cfg(not(target_arch = "wasm32"))]
            pub fn name(self) -> &'static str {
                match self {
                    $(Sentence::$id => stringify!($id),)*
                }
            }
        }
    };
}

sentences! {
    ServerEtcdText = 1,
    ServerMembership = 1,
    ServerNoLeaderKnown = 2,
    ServerNoMemberRunning = 1,
    ServerProposalDropped = 2,
    ServerUnexpected = 1,
    ServerRemoved = 1,
    ServerRemovedCannotReturn = 1,
    ServerRemovedForGood = 1,
    ServerNotRunning = 1,
    ServerNodeDown = 1,
    ServerStopped = 2,
    ServerStoppedInRaft = 1,
    ServerAlreadyRunning = 1,
    ServerNotAMember = 1,
    ServerNoSuchNode = 1,
    ServerLearnerRpc = 2,
    ServerNotTracked = 3,
    ServerReadOnlyLearner = 2,
    ServerLearnerNotReady = 4,
    ServerVoterNotReady = 4,
    ServerNotEnoughStartedOthers = 0,
    ServerNotEnoughStarted = 5,
    ServerUnhealthyNotAll = 4,
    ServerUnhealthyAdd = 4,
    ServerUnhealthyRemove = 6,
    UrlGoParse = 2,
    UrlEtcdRule = 2,
    ServerBadPeerUrl = 3,
    ServerPeerListener = 3,
    ServerTransfereeNotMember = 2,
    ServerTransfereeLearner = 2,
    DeadlineTransfer = 1,
    DeadlineNoLeaderAt = 2,
    DeadlineNoMember = 1,
    DeadlineNotRunning = 2,
    LessonChecked = 1,
    DeadlineClient = 1,
    DeadlineServerTimeout = 1,
    DeadlineRaftRefused = 2,
    ServerWatchCanceled = 3,
    ServerIdInCluster = 2,
    ServerMirrorExists = 1,
    ServerClusterNameTaken = 1,
    ServerMirrorSameCluster = 3,
    ServerNoSuchMirror = 1,
    ServerNoLinkAcross = 2,
    ServerFromTo = 2,
    ServerNothingToDeliver = 1,
    ServerNothingToDeliverHeld = 2,
    ServerAnyMessage = 0,
    ServerMessageNumbered = 1,
    ServerNothingToDrop = 4,
    RoleLeader = 0,
    RoleFollower = 0,
    RoleCandidate = 0,
    RolePreCandidate = 0,
    RoleDown = 0,
    UnmetNoLeader = 0,
    UnmetLeaderIs = 1,
    UnmetMatch = 3,
    UnmetNotTracked = 1,
    UnmetAppliedUpTo = 2,
    UnmetNotApplied = 2,
    UnmetQuorum = 1,
    SetVoters = 0,
    SetLearners = 0,
    SetOutgoingVoters = 0,
    UnmetSet = 2,
    UnmetTerm = 1,
    UnmetCommit = 1,
    UnmetRole = 2,
    UnmetSeesItselfLearner = 1,
    UnmetSeesItselfVoter = 1,
    UnmetSeesItselfOutside = 1,
    UnmetProgress = 2,
    UnmetNoPrevious = 0,
    UnmetPreviousFailed = 1,
    UnmetPreviousSucceeded = 0,
    UnmetPreviousNotGet = 0,
    UnmetPreviousRead = 1,
    UnmetPreviousReadAbsent = 0,
    UnmetNotLinearizable = 0,
    AnomalyWrite = 1,
    AnomalyRead = 1,
    AnomalyReadAbsent = 0,
    AnomalyDelete = 0,
    AnomalyNoResponse = 0,
    AnomalySeconds = 1,
    AnomalyOperation = 3,
    UnmetAnomalyKey = 2,
    UnmetLinearizable = 2,
    UnmetNoWatch = 1,
    UnmetNoMirror = 1,
    UnmetMirrorNotFailed = 1,
    UnmetMirrorFailed = 2,
    UnmetMirrorState = 2,
    UnmetWatchEvents = 2,
    UnmetWatchOpen = 2,
    QueuedNode = 1,
    QueuedLeader = 1,
    UnmetQueued = 2,
    MessagesSent = 0,
    MessagesReceived = 0,
    UnmetMessages = 3,
    UnmetHeld = 3,
    UnmetInFlight = 3,
    FailureExpect = 2,
    FailureWaitUntil = 3,
    SourceFile = 0,
    SourceLink = 0,
    ShareScript = 4,
    ShareTooLongRun = 3,
    ShareMoment = 2,
    ShareLinkTooLong = 2,
    ShareNotALink = 2,
    ShareVersion = 2,
    ShareTruncatedBytes = 1,
    ShareChecksum = 2,
    ShareEscapeAtEnd = 0,
    ShareNotUtf8 = 1,
    ShareNotBase64 = 3,
    ShareTruncatedChars = 1,
    ShareNotCanonical = 0,
    Seconds = 1,
    Span = 1,
    ReasonLease = 0,
    ReasonAlreadyVoted = 0,
    ReasonLeaderKnown = 0,
    ReasonLogNotUpToDate = 0,
    ReasonLearner = 0,
    ReasonNoLeader = 0,
    ReasonAlreadyLeader = 0,
    ReasonPendingConfigurationChangesToApply = 0,
    ReasonNotAFollower = 0,
    ReasonUnknownMember = 0,
    ReasonTransferAlreadyInProgress = 0,
    ReasonLeadershipTransferInProgress = 0,
    ReasonLeaderNotInTheConfiguration = 0,
    ReasonMustTransitionOutOfJointConfigFirst = 0,
    ReasonConfigIsAlreadyJoint = 0,
    ReasonCantMakeAZeroVoterConfigJoint = 0,
    ReasonCantLeaveANonJointConfig = 0,
    ReasonCantApplySimpleConfigChangeInJointConfig = 0,
    ReasonMoreThanOneVoterChangedWithoutEnteringJointConfig = 0,
    ReasonRemovedAllVoters = 0,
    ReasonUnknown = 1,
    NotYetBehind = 4,
    NotYetNeverHeard = 0,
    NotYetNotHeard = 1,
    NotYetSnapshot = 0,
    NotYetStrict = 1,
    NotYetNotTracked = 0,
    NotYetNoStandby = 0,
    MirrorStarted = 3,
    MirrorSynced = 4,
    MirrorRelayed = 3,
    MirrorPaused = 3,
    MirrorResumed = 2,
    MirrorFailed = 2,
    MirrorStopped = 1,
    ModePromote = 5,
    ModeNotYet = 3,
    ModeFailoverCountdown = 4,
    ModeFailoverCancelled = 2,
    ModeFailoverRemove = 4,
    ModeFailoverReplace = 3,
    ModeFailoverGrow = 3,
    ModeFailoverStandbyNotReady = 4,
    ModeFailoverBlocked = 3,
    ChangeAddNode = 1,
    ChangeAddLearnerNode = 1,
    ChangeRemoveNode = 1,
    ChangeUpdateNode = 1,
    JointLeave = 0,
    JointEnter = 1,
    DroppedLinkCut = 0,
    DroppedNodeDown = 0,
    DroppedNoRoute = 0,
    DroppedSenderRemoved = 0,
    DroppedLost = 0,
    DroppedByHand = 0,
    HandHeld = 3,
    HandHeldBoth = 3,
    HandNothingHeld = 0,
    HandReleased = 1,
    HandReleasedSome = 2,
    HandDropped = 3,
    HandDelivered = 5,
    PreVote = 0,
    Vote = 0,
    RaftBecameFollowerOf = 3,
    RaftBecameFollower = 2,
    RaftBecamePreCandidate = 2,
    RaftBecameCandidate = 2,
    RaftBecameLeader = 3,
    RaftVoteGranted = 4,
    RaftVoteRejected = 5,
    RaftStepDownNoQuorum = 2,
    RaftCommitted = 2,
    RaftSnapshotSent = 3,
    RaftSnapshotRestored = 2,
    RaftConfChangeRefused = 2,
    RaftProposalDropped = 2,
    RaftTransferStarted = 2,
    RaftTransferIgnored = 3,
    RaftTransferAborted = 2,
    RaftIgnoredTimeoutNow = 2,
    RaftCampaignIgnored = 2,
    RaftForgetLeaderIgnored = 1,
    RaftAutoLeaveProposed = 1,
    MissingNodeId = 0,
    MissingQuotedText = 0,
    MissingDuration = 0,
    MissingAKey = 0,
    MissingAValue = 0,
    MissingACondition = 0,
    MissingANumber = 0,
    MissingARevision = 0,
    MissingAnErrorCode = 0,
    MissingASize = 0,
    MissingState = 0,
    MissingMemberSubcommand = 0,
    MissingForm = 1,
    ParseQuoteInsideWord = 1,
    ParseUnknownEscape = 1,
    ParseUnterminated = 0,
    ParseSpaceAfterQuote = 1,
    ParseClusterFirst = 1,
    ParseSecondCluster = 0,
    ParseSecondSayJa = 0,
    ParseSayJaAlone = 0,
    ParseEmptyScript = 0,
    ParseNoCommand = 1,
    ParseClusterNotCommand = 0,
    ParseBadClusterName = 1,
    ParseQuotedCommand = 1,
    ParseUnknownCommand = 2,
    ParseUnknownCommandNear = 2,
    ParseEtcdctlLine = 0,
    ParseEtcdctlCommand = 3,
    ParseEtcdctlCommandScript = 3,
    ParseEtcdctlUnmodelled = 2,
    ParseMissing = 2,
    ParseTextIsOption = 3,
    ParseExtraWord = 2,
    ParseExtraSayWord = 2,
    ParseQuotedOption = 3,
    ParseUnknownOption = 3,
    ParseUnknownOptionNear = 3,
    ParseDuplicateOption = 1,
    ParseOptionTakesNoValue = 1,
    ParseMissingOptionValue = 2,
    ParseUnknownCondition = 2,
    ParseUnknownConditionNear = 2,
    ParseBadDuration = 1,
    ParseNegativeDuration = 1,
    ParseDurationUnit = 1,
    ParseDurationOtherUnit = 2,
    ParseDurationSpace = 2,
    ParseDurationTooLong = 1,
    ParseDurationFraction = 1,
    ParseWaitTooLong = 2,
    ParseBadPercent = 1,
    ParseLossAbove100 = 1,
    ParseLossDecimals = 1,
    ParseBadSize = 1,
    ParseNegativeSize = 1,
    ParseSizeUnit = 1,
    ParseSizeTooLarge = 2,
    ParseSizeFraction = 1,
    ParseBadNodeId = 3,
    ParseNodeIdNamed = 4,
    ParseNodeIdRange = 3,
    ParseBadNumber = 1,
    ParseNumberTooLarge = 1,
    ParseUnclosed = 0,
    ParseUnknownPlaceholder = 2,
    ParseStrayClose = 0,
    ParseCommandExpected = 0,
    ParseSayJaInConsole = 0,
    ParseLoadMissing = 0,
    ParseLoadNoRate = 0,
    ParseNetMissing = 0,
    ParseLearnerAndVoter = 0,
    ParseLearnerKindWithVoter = 1,
    ParseStandbyAndReadOnly = 0,
    NamedMemberSubcommand = 0,
    NamedMirrorSubcommand = 0,
    NamedMirrorState = 0,
    NamedRole = 0,
    NamedProgressState = 0,
    NamedErrorCode = 0,
    NamedMessageKind = 0,
    ParseUnknownName = 3,
    ParseUnknownNameNear = 3,
    ParseUnknownRelease = 1,
    ParseTwiceInChange = 1,
    ParseChangeMissing = 0,
    ParseMissingLinkEnd = 1,
    ParseSameNodeLink = 2,
    ParseOneDirection = 3,
    ParseQuotedGroups = 1,
    ParsePartitionMissing = 0,
    ParseGroupSeparator = 1,
    ParseTwiceInGroup = 1,
    ParseInTwoGroups = 1,
    ParseCommaBeforeId = 0,
    ParseEmptyGroupBeforeBar = 0,
    ParseEmptyGroupAfterBar = 0,
    ParseIdAfterComma = 0,
    ParseOneGroup = 0,
    ParseEmptyList = 0,
    ParseTwiceInList = 1,
    ParseEmptyValue = 0,
    FormMessages = 1,
    FormQueued = 0,
    FormWatchEvents = 0,
    FormRole = 0,
    FormMirror = 0,
    FormProgress = 0,
    FormMatchShare = 0,
    FormRate = 0,
    FormWatchNumber = 0,
    FormAutoPromote = 0,
    FormLatency = 0,
    FormBandwidth = 0,
    FormLinkCount = 1,
    FormChoice = 2,
    ParseFormExpected = 2,
    ParseMissingEventCount = 0,
    ParseMissingRole = 1,
    ParseMissingVoters = 0,
    ParseMaxLearnersRelease = 1,
    LeastHeartbeat = 0,
    LeastSnapshotCount = 0,
    LeastRate = 0,
    LeastBandwidth = 0,
    LeastWatchNumber = 0,
    LeastCount = 0,
    ParseRateTooHigh = 2,
    ParseAutoPromoteRange = 1,
    ParseLatencyOrder = 2,
    ParseElectionTooShort = 3,
    ParseElectionTooLong = 2,
    ParseFailoverTooShort = 2,
    CodeBadUrl = 0,
    CodeIdExists = 0,
    CodeIdRemoved = 0,
    CodePeerUrlExists = 0,
    CodeTooManyLearners = 0,
    CodeMemberNotFound = 0,
    CodeMemberNotLearner = 0,
    CodeMemberNotVoter = 0,
    CodeLearnerNotReady = 0,
    CodeMemberReadOnly = 0,
    CodeNotEnoughStartedMembers = 0,
    CodeUnhealthy = 0,
    CodeBadLeaderTransferee = 0,
    CodeNotSupportedForLearner = 0,
    CodeNotStarted = 0,
    CodeServerStopped = 0,
    CodeNoLeader = 0,
    CodeTimeout = 0,
    CodeExpectFailed = 0,
    CodeCompacted = 0,
    CodeFutureRev = 0,
    CodeEmptyKey = 0,
    CodeNoMessage = 0,
    CodeWithMeaning = 2,
    StateLeader = 0,
    StateFollower = 0,
    StateCandidate = 0,
    StatePreCandidate = 0,
    StateDown = 0,
    StateNotStarted = 0,
    StateJoining = 0,
    StateRemoved = 0,
    PropertyElectionSafety = 0,
    PropertyLogMatching = 0,
    PropertyLeaderCompleteness = 0,
    PropertyStateMachineSafety = 0,
    PropertyLeaderAppendOnly = 0,
    PropertyTermMonotonicity = 0,
    PropertyCommitMonotonicity = 0,
    PropertyLearnersNeverCampaign = 0,
    StoppedTime = 1,
    StoppedPlace = 2,
    StoppedMaxWall = 1,
    StoppedMemory = 2,
    StoppedCancelled = 0,
    StoppedStopped = 0,
    Stopped = 5,
    EventPutApplied = 2,
    EventPublishApplied = 2,
    EventConfChangeApplied = 3,
    EventConfChangeRefused = 4,
    EventJointChangeApplied = 3,
    EventJointChangeRefused = 4,
    EventDeleteAppliedNone = 2,
    EventDeleteApplied = 3,
    EventCompactionApplied = 3,
    EventCompactionRefused = 4,
    EventReadServed = 3,
    EventReadServedAbsent = 2,
    EventReadRefused = 3,
    EventReadOfKey = 1,
    EventReadOfKeyAt = 2,
    EventMembersServed = 1,
    EventDowngradeServed = 2,
    EventJoinUnreachable = 3,
    EventJoinAsks = 2,
    EventJoinNoAnswer = 3,
    EventJoinLeaderChanged = 2,
    EventCompacted = 2,
    EventMessageDropped = 4,
    EventCrashed = 1,
    EventStarted = 1,
    EventStoppedRemoved = 1,
    EventStoppedRemovedDelayed = 1,
    EventLinkCut = 2,
    EventLinkHealed = 2,
    EventWatchEvent = 3,
    EventWatchEvents = 4,
    EventWatchCanceled = 3,
    ResultErrorFailure = 2,
    ResultErrorDetail = 2,
    ResultError = 1,
    ResultPending = 0,
    ResultValue = 1,
    ResultValueAbsent = 0,
    ResultOkDetail = 1,
    ResultOk = 0,
    DetailsIndex = 1,
    DetailsNoKey = 0,
    DetailsDeletedAt = 1,
    DetailsDeleted = 0,
    DetailsWatch = 2,
    DetailsLearner = 0,
    DetailsNotStarted = 0,
    LoggedResultExpected = 3,
    Unparsed = 4,
    Folded = 3,
    CampaignFolded = 5,
    CampaignFoldedGranted = 1,
    CampaignFoldedRefusal = 2,
    CampaignFoldedRefused = 1,
    BranchStarted = 3,
    BranchResumed = 2,
    RefusalNoFreeId = 1,
    RefusalNoLeaderToIsolate = 0,
    RefusalTooFewToPartition = 0,
    RefusalNoBranch = 1,
    RefusalLessonHasNoBranches = 0,
    RefusalRunInProgress = 0,
    RefusalClockOverBudget = 2,
    RefusalAutoPromoteRange = 0,
    RefusalFailoverAfterRange = 2,
    RefusalMaxLearnersRange = 1,
    ChoiceOr = 0,
    RefusalModeChoice = 3,
    RefusalModes = 3,
    MoreFailed = 1,
    NothingHappens = 0,
    AtTheBeginning = 0,
    SeekCancelled = 1,
    Surprise = 3,
    Surprises = 1,
    EtcdctlRefusalServer = 2,
    EtcdctlRefusalUnmodelled = 2,
    EtcdctlRefusalUnmodelledFlag = 2,
    EtcdctlRefusalUnmodelledPrinter = 1,
    EtcdctlRefusalBadName = 1,
    EtcdctlRefusalSeveralUrls = 0,
    EtcdctlRefusalBadEndpoints = 1,
    EtcdctlRefusalNegativeRevision = 1,
    EtcdctlRecorded = 1,
    NoLesson = 1,
    QuorumVerdictNoLeader = 0,
    QuorumVerdictReaches = 4,
    QuorumVerdictShort = 4,
    QuorumSentenceVoters = 3,
    QuorumSentenceLearners = 1,
    QuorumSentenceNoneRunning = 0,
    QuorumSentenceLeader = 1,
    QuorumSentenceNoLeader = 1,
    QuorumSentenceReach = 3,
    QuorumSentenceHasQuorum = 0,
    QuorumSentenceShort = 1,
    NodeHeadPlain = 1,
    NodeHeadStandby = 1,
    ReadModeWeak = 0,
    ReadModeStrong = 0,
    NodeHeadReadOnly = 2,
    LearnerWordPlain = 0,
    LearnerWordStandby = 0,
    LearnerWordReadOnly = 1,
    SeesItselfLearner = 0,
    SeesItselfVoter = 0,
    SeesItselfLearnerShort = 0,
    SeesItselfVoterShort = 0,
    AutoPromoteAt = 1,
    FailoverDue = 0,
    FailoverCountdown = 1,
    MessageCountsCompact = 2,
    MessageCounts = 2,
    HistoryLaneScript = 0,
    HistoryLaneLoad = 0,
    HistoryLaneClient = 1,
    HistoryOpNone = 0,
    HistoryTick = 2,
    ValueAbsent = 0,
    ValueQuoted = 1,
    HistoryVerdictEmpty = 0,
    HistoryVerdictLinearizable = 2,
    HistoryVerdictStaleRead = 5,
    HistoryVerdictNotLinearizable = 2,
    HistoryNote = 4,
    HistoryNoteHidden = 1,
    UnreachableUrl = 1,
    UnreachableUrlShort = 0,
    SendQueue = 1,
    LogTitle = 0,
    LogRowLearner = 1,
    LogRow = 1,
    LogRowLearnerShort = 1,
    NoLog = 0,
    RingCaptionLeader = 3,
    RingCaptionNoLeader = 1,
    MirrorCaptionSyncing = 0,
    MirrorCaptionWatching = 0,
    MirrorCaptionStopped = 0,
    MirrorCaptionFailed = 0,
    MirrorCaption = 2,
    MirrorCaptionRelayed = 1,
    LogMarkCommit = 0,
    LogMarkApplied = 0,
    LogMarkSnapshot = 0,
    LogMarkMemberChange = 0,
    LogMarkUncommitted = 0,
    LogMarkCompacted = 0,
    SafetyHeadlineOk = 0,
    SafetyHeadlineMore = 1,
    SafetyHeadline = 3,
    SafetyListHeadNone = 1,
    SafetyListHead = 1,
    SafetyChecked = 0,
    SafetyTipOk = 0,
    SafetyTipBroken = 0,
    WhenWho = 2,
    SayNone = 0,
    SayNode = 1,
    SayCount = 1,
    SaySeconds = 1,
    DurationSeconds = 1,
    DurationMillis = 1,
    TimeSpan = 2,
}

impl Sentence {
    fn fills(self) -> usize {
        Sentence::FILLS[self as usize] as usize
    }
}

/// A template's placeholders, each name once, in the order they first
/// appear; or why the template is not one (a lone brace, a bad name).
pub fn placeholders(template: &str) -> Result<Vec<&str>, String> {
    let mut names: Vec<&str> = Vec::new();
    for piece in braces(template) {
        let name = match piece {
            Ok(Brace::Text(_)) => continue,
            Ok(Brace::Name { name, .. }) => name,
            Err(BraceError::StrayClose(_)) => {
                return Err("a lone \"}\" (a literal brace is written \"}}\")".to_string())
            }
            Err(BraceError::Unclosed(_)) => {
                return Err(
                    "a \"{\" that is never closed (a literal brace is written \"{{\")".into(),
                )
            }
        };
        let good = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !good {
            return Err(format!(
                "the placeholder {{{name}}} is not a name (lower-case letters, digits and \"_\")"
            ));
        }
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Ok(names)
}

/// A template as its line writes it, with its escapes undone.
fn unescape(raw: &str) -> Result<String, String> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('s') => out.push(' '),
            Some('\\') => out.push('\\'),
            Some(other) => return Err(format!("an unknown escape \"\\{other}\"")),
            None => return Err("a \"\\\" at the line's end".to_string()),
        }
    }
    Ok(out)
}

/// The lines of a catalog that are sentences: `(line number, key, raw
/// template)`, comments and blank lines left out.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    text.lines().enumerate().filter_map(|(k, line)| {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        // Keys hold no ':'; a line without ": " is all key, and refused.
        let (key, raw) = match line.find(':') {
            Some(i) if line[i + 1..].starts_with(' ') => (&line[..i], &line[i + 2..]),
            _ => (line, ""),
        };
        Some((k + 1, key, raw))
    })
}

/// The templates of a catalog, in its order, checked against this build's
/// sentences: one line each, a key of lower-case words joined by "-", and
/// as many placeholders as the sentence fills.
pub fn parse(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(Sentence::ALL.len());
    for (line, key, raw) in lines(text) {
        let Some(&id) = Sentence::ALL.get(out.len()) else {
            return Err(format!(
                "line {line}: the catalog has more than the {} sentences this build speaks",
                Sentence::ALL.len()
            ));
        };
        let good_key = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !good_key {
            return Err(format!(
                "line {line}: a sentence is written \"key: template\", with a key of lower-case words joined by \"-\""
            ));
        }
        let template = unescape(raw).map_err(|e| format!("line {line} ({key}): {e}"))?;
        let fills = placeholders(&template)
            .map_err(|e| format!("line {line} ({key}): {e}"))?
            .len();
        if fills != id.fills() {
            return Err(format!(
                "line {line} ({key}): the template has {fills} placeholders, this build's sentence fills {}",
                id.fills()
            ));
        }
        out.push(template);
    }
    if out.len() != Sentence::ALL.len() {
        return Err(format!(
            "the catalog has {} sentences, this build speaks {} (a file cut short, or one for another build)",
            out.len(),
            Sentence::ALL.len()
        ));
    }
    Ok(out)
}

/// The catalog compiled in (native builds).
#[cfg(not(target_arch = "wasm32"))]
pub const TEXT: &str = include_str!("narration-ja.txt");

#[cfg(not(target_arch = "wasm32"))]
fn templates() -> Option<&'static [String]> {
    static PARSED: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    Some(PARSED.get_or_init(|| parse(TEXT).unwrap_or_else(|e| panic!("narration-ja.txt: {e}"))))
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The catalog [`load`] was given (the page's module only).
    static LOADED: std::cell::OnceCell<&'static [String]> = const { std::cell::OnceCell::new() };
}

#[cfg(target_arch = "wasm32")]
fn templates() -> Option<&'static [String]> {
    LOADED.with(|l| l.get().copied())
}

/// Gives the module the catalog (the page does once, before it first
/// speaks Japanese); returns how many sentences it holds. A catalog that
/// does not fit this build is an error and changes nothing; once loaded,
/// the catalog stays as it is. Natively the catalog is compiled in: this
/// only checks `text`.
pub fn load(text: &str) -> Result<usize, String> {
    let parsed = parse(text)?;
    let n = parsed.len();
    #[cfg(target_arch = "wasm32")]
    LOADED.with(|l| {
        l.get_or_init(|| Vec::leak(parsed));
    });
    Ok(n)
}

/// Whether the sentences are there to be said (always, natively).
pub fn loaded() -> bool {
    templates().is_some()
}

/// A sentence with its facts: `args` fill the template's placeholders in
/// the order they first appear. Without a catalog (a page that never
/// loaded one) the words say so, instead of a sentence.
pub fn render(id: Sentence, args: &[&dyn Display]) -> String {
    let Some(template) = templates().and_then(|t| t.get(id as usize)) else {
        return format!(
            "[narration-ja.txt is not loaded: sentence {}]",
            id as usize + 1
        );
    };
    let mut out = String::with_capacity(template.len() + 16);
    let mut seen: Vec<&str> = Vec::new();
    // Where the last placeholder's words start: a count followed by つ.
    let mut filled = out.len();
    for piece in braces(template) {
        match piece {
            Ok(Brace::Text(words)) => match words.strip_prefix('つ') {
                Some(rest) if !counts_in_tsu(&out[filled..]) => {
                    out.push('個');
                    out.push_str(rest);
                }
                _ => out.push_str(words),
            },
            Ok(Brace::Name { name, .. }) => {
                let k = match seen.iter().position(|n| *n == name) {
                    Some(k) => k,
                    None => {
                        seen.push(name);
                        seen.len() - 1
                    }
                };
                filled = out.len();
                match args.get(k) {
                    Some(a) => {
                        let _ = write!(out, "{a}");
                    }
                    None => {
                        let _ = write!(out, "{{{name}}}");
                    }
                }
            }
            // A loaded template has no lone brace (`parse` refuses one);
            // were one there, the rest is kept as written.
            Err(BraceError::Unclosed(at) | BraceError::StrayClose(at)) => {
                out.push_str(&template[at..]);
            }
        }
    }
    out
}

/// Whether a count written as `n` takes つ: the native counter counts one
/// to nine (1つ … 9つ); nought and ten and more take 個 (0個, 10個, 12個).
/// Anything but a number (a placeholder left unfilled) keeps its つ.
pub fn counts_in_tsu(n: &str) -> bool {
    !n.bytes().all(|b| b.is_ascii_digit())
        || n.is_empty()
        || matches!(n, "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9")
}

/// Whether `names` are the placeholders of `id`'s template, in the order
/// they first appear (native builds: the names are gone from the page's).
#[cfg(not(target_arch = "wasm32"))]
pub fn check(id: Sentence, names: &[&str]) -> Result<(), String> {
    let template = templates()
        .and_then(|t| t.get(id as usize))
        .ok_or("no catalog")?;
    let expected = placeholders(template)?;
    if expected != names {
        return Err(format!(
            "{}: the template {template:?} fills {expected:?}, the call gives {names:?}",
            id.name()
        ));
    }
    Ok(())
}

/// [`check`] as a debug build's assertion, at every sentence said.
#[cfg(not(target_arch = "wasm32"))]
pub fn debug_check(id: Sentence, names: &[&str]) {
    if cfg!(debug_assertions) {
        if let Err(e) = check(id, names) {
            panic!("{e}");
        }
    }
}

/// A variant's name as the catalog's key: "NoLeaderKnown" → "no-leader-known".
#[cfg(not(target_arch = "wasm32"))]
pub fn key_of(name: &str) -> String {
    let mut key = String::new();
    for (k, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if k > 0 {
                key.push('-');
            }
            key.push(c.to_ascii_lowercase());
        } else {
            key.push(c);
        }
    }
    key
}

// Native only: the names and the compiled-in catalog are not in wasm.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_count_takes_tsu_from_one_to_nine_and_ko_otherwise() {
        let say = |n: usize| render(Sentence::SayCount, &[&n]);
        assert_eq!(say(1), "1つ");
        assert_eq!(say(9), "9つ");
        assert_eq!(say(0), "0個");
        assert_eq!(say(10), "10個");
        assert_eq!(say(12), "12個");
        // Inside a sentence, each count by itself.
        assert_eq!(
            render(Sentence::QuorumSentenceShort, &[&3]),
            "クォーラムに3つ足りません。"
        );
        assert_eq!(
            render(Sentence::UnmetQuorum, &[&11]),
            "クォーラムは11個です"
        );
        // An unfilled placeholder keeps its つ.
        assert_eq!(render(Sentence::SayCount, &[]), "{count}つ");
        assert!(
            counts_in_tsu("3") && counts_in_tsu("x") && !counts_in_tsu("0") && !counts_in_tsu("15")
        );
    }

    /// The arguments of a macro call starting at `text` (just after its
    /// opening parenthesis), split at their top-level commas.
    fn call_args(text: &str) -> Vec<&str> {
        let (mut depth, mut start, mut in_str, mut escaped) = (0i32, 0, false, false);
        let mut args = Vec::new();
        for (i, c) in text.char_indices() {
            if in_str {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => in_str = true,
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => {
                    args.push(text[start..i].trim());
                    return args.into_iter().filter(|a| !a.is_empty()).collect();
                }
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    args.push(text[start..i].trim());
                    start = i + 1;
                }
                _ => {}
            }
        }
        panic!("a call that never closes: {text:.80}");
    }

    /// Every sentence said in `text_ja.rs`, as its `ja!` call names it and
    /// the names of the facts it gives.
    fn calls() -> Vec<(String, Vec<String>)> {
        let src = include_str!("text_ja.rs");
        let src = &src[..src.find("#[cfg(test)]").unwrap_or(src.len())];
        let mut out = Vec::new();
        for (at, _) in src.match_indices("ja!(") {
            let args = call_args(&src[at + 4..]);
            if args
                .first()
                .is_none_or(|a| a.starts_with('@') || a.starts_with('$'))
            {
                continue; // the macro's own definition
            }
            let names = args[1..]
                .iter()
                .map(|a| a.split('=').next().unwrap().trim().to_string())
                .collect();
            out.push((args[0].to_string(), names));
        }
        out
    }

    fn by_name(name: &str) -> Option<Sentence> {
        Sentence::ALL.iter().copied().find(|s| s.name() == name)
    }

    #[test]
    fn the_catalogs_keys_are_the_sentences_in_order() {
        let keys: Vec<&str> = lines(TEXT).map(|(_, key, _)| key).collect();
        let names: Vec<String> = Sentence::ALL.iter().map(|s| key_of(s.name())).collect();
        assert_eq!(keys, names);
        assert_eq!(load(TEXT), Ok(Sentence::ALL.len()));
        assert!(Sentence::ALL.len() > 400, "{}", Sentence::ALL.len());
        assert_eq!(key_of("NoLeaderKnown"), "no-leader-known");
        assert_eq!(key_of("LossAbove100"), "loss-above100");
        // Each variant is its own position (the page's module finds a
        // template by it).
        for (k, s) in Sentence::ALL.iter().enumerate() {
            assert_eq!(*s as usize, k);
        }
    }

    #[test]
    fn every_call_gives_its_templates_placeholders_in_order_and_every_sentence_is_said() {
        let calls = calls();
        assert!(calls.len() > 400, "{}", calls.len());
        let mut said = vec![false; Sentence::ALL.len()];
        for (name, args) in &calls {
            let id = by_name(name).unwrap_or_else(|| panic!("no sentence {name}"));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            assert_eq!(check(id, &args), Ok(()));
            said[id as usize] = true;
        }
        for (s, said) in Sentence::ALL.iter().zip(said) {
            assert!(said, "{} is in the catalog but never said", s.name());
        }
        // The check itself: a wrong order and a missing fact are caught.
        let id = by_name("ServerNoLeaderKnown").unwrap();
        assert_eq!(check(id, &["via", "etcd"]), Ok(()));
        assert!(check(id, &["etcd", "via"]).is_err());
        assert!(check(id, &["via"]).is_err());
    }

    #[test]
    fn a_template_fills_its_placeholders_by_first_appearance() {
        let id = by_name("ServerNoLeaderKnown").unwrap();
        assert_eq!(
            render(id, &[&3, &"etcdserver: no leader"]),
            "ノード3はリーダーを知りません：etcdserver: no leader"
        );
        // A name used twice is one fact.
        let id = by_name("ServerNotAMember").unwrap();
        assert_eq!(
            render(id, &[&4]),
            "ノード4はメンバーではありません：先に「member add 4」で追加してください"
        );
        // Braces.
        let id = by_name("ParseUnknownPlaceholder").unwrap();
        assert_eq!(
            render(id, &[&"x", &"{a}"]),
            "未知のプレースホルダー{x}です。使えるのは：{a}（波かっこそのものは{{と}}）"
        );
        let id = by_name("ChoiceOr").unwrap();
        assert_eq!(render(id, &[]), "、");
        // A fact not given leaves its placeholder showing (never a panic).
        let id = by_name("ServerNoLeaderKnown").unwrap();
        assert_eq!(render(id, &[&3]), "ノード3はリーダーを知りません：{etcd}");
    }

    #[test]
    fn a_catalog_that_does_not_fit_the_build_is_refused_with_its_reason() {
        let good: Vec<&str> = TEXT.lines().collect();
        let with = |k: usize, line: &str| {
            let mut l = good.clone();
            l[k] = line;
            l.join("\n")
        };
        let first = good
            .iter()
            .position(|l| l.starts_with("server-no-leader-known: "))
            .unwrap();
        let cases = [
            (good[..good.len() - 1].join("\n"), "this build speaks"),
            (format!("{TEXT}\nextra-line: x"), "more than the"),
            (
                with(first, "server-no-leader-known: メンバー {via} は知らない"),
                "the template has 1 placeholders, this build's sentence fills 2",
            ),
            (
                with(first, "server-no-leader-known: {via} {etcd} {more}"),
                "fills 2",
            ),
            (
                with(first, "server-no-leader-known: {via {etcd}"),
                "is not a name",
            ),
            (
                with(first, "server-no-leader-known: {via} } {etcd}"),
                "a lone \"}\"",
            ),
            (
                with(first, "server-no-leader-known: {via} {etcd"),
                "never closed",
            ),
            (
                with(first, "server-no-leader-known: {via} \\t {etcd}"),
                "unknown escape",
            ),
            (
                with(first, "Server No Leader: {via} {etcd}"),
                "key: template",
            ),
            (String::new(), "the catalog has 0 sentences"),
        ];
        for (text, why) in cases {
            let e = parse(&text).unwrap_err();
            assert!(e.contains(why), "{e} (expected {why:?})");
            assert_eq!(load(&text).unwrap_err(), e);
        }
        // Comments, blank lines and Windows line ends are no sentences.
        let commented = format!("# the Japanese narration\n\n{}", TEXT.replace('\n', "\r\n"));
        assert_eq!(parse(&commented), parse(TEXT));
        // Escapes: a line break, a backslash, a space at an end.
        assert_eq!(unescape("a\\nb\\\\c\\s").unwrap(), "a\nb\\c ");
        let spaced = parse(&with(first, "server-no-leader-known: \\s{via}{etcd}\\s")).unwrap();
        assert!(spaced.iter().any(|t| t == " {via}{etcd} "), "{spaced:?}");
    }
}
